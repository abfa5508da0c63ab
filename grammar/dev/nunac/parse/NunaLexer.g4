// Lexer of the nunac plan language (.msccl files). No actions: the IR is built by a visitor.
lexer grammar NunaLexer;

PARAM      : 'param';
PROGRAM    : 'program';
COLLECTIVE : 'collective';
PROTOCOL   : 'protocol';
INSTANCES  : 'instances';
BUFFER     : 'buffer';
FOR        : 'for';
IN         : 'in';
STEP       : 'step';
IF         : 'if';
ELSE       : 'else';
LET        : 'let';
REQUIRE    : 'require';
CHUNK      : 'chunk';
TRUE       : 'true';
FALSE      : 'false';

LPAREN   : '(';
RPAREN   : ')';
LBRACE   : '{';
RBRACE   : '}';
LBRACK   : '[';
RBRACK   : ']';
SEMI     : ';';
COMMA    : ',';
DOTDOT   : '..';
DOT      : '.';
QUESTION : '?';
COLON    : ':';

EQ     : '==';
NE     : '!=';
LE     : '<=';
GE     : '>=';
LT     : '<';
GT     : '>';
ANDAND : '&&';
OROR   : '||';
NOT    : '!';
ASSIGN : '=';
PLUS   : '+';
MINUS  : '-';
STAR   : '*';
SLASH  : '/';
PERCENT: '%';

INT    : [0-9]+ ('_' [0-9]+)*;
STRING : '"' (~["\\\r\n] | '\\' ["\\nt])* '"';
ID     : [a-zA-Z_] [a-zA-Z_0-9]*;

LINE_COMMENT  : '//' ~[\r\n]* -> skip;
BLOCK_COMMENT : '/*' .*? '*/' -> skip;
// Reported by the front end as errors of their own, instead of a confusing parse error.
UNTERMINATED_COMMENT : '/*' ( ~'*' | '*'+ ~[*/] )* '*'* EOF;
UNTERMINATED_STRING  : '"' (~["\\\r\n] | '\\' ["\\nt])*;
// A closed string with an escape other than \" \\ \n \t: one error at the escape, not a cascade.
BAD_ESCAPE_STRING    : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"';
WS            : [ \t\r\n\f]+ -> skip;

// Anything else is one bad character; the parser reports it with its position.
ERROR_CHAR : . ;
