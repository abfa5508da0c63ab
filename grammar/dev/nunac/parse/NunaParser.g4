// Parser of the nunac plan language (.msccl files). Action-free; see docs/dsl.md.
parser grammar NunaParser;

options { tokenVocab = NunaLexer; }

file
    : paramDecl* program EOF
    ;

paramDecl
    : PARAM name=ID ASSIGN expr SEMI
    ;

program
    : PROGRAM name=STRING COLLECTIVE kind=ID LPAREN argList? RPAREN programOption* block
    ;

programOption
    : PROTOCOL proto=ID                      # protocolOption
    | INSTANCES expr                         # instancesOption
    ;

block
    : LBRACE statement* RBRACE
    ;

statement
    : BUFFER name=ID LBRACK size=expr RBRACK SEMI                         # bufferStmt
    | FOR var=ID IN from=expr DOTDOT to=expr (STEP by=expr)? block        # forStmt
    | IF LPAREN cond=expr RPAREN then=block (ELSE (elseIf=statement | otherwise=block))?  # ifStmt
    | LET name=ID ASSIGN expr SEMI                                        # letStmt
    | REQUIRE LPAREN cond=expr (COMMA message=STRING)? RPAREN SEMI        # requireStmt
    | chunkRef DOT op=ID LPAREN argList? RPAREN SEMI                      # chunkOpStmt
    | op=ID LPAREN argList? RPAREN SEMI                                   # callStmt
    | block                                                               # blockStmt
    ;

chunkRef
    : CHUNK LPAREN rank=expr COMMA buffer=ID COMMA index=expr (COMMA count=expr)? RPAREN
    ;

argList
    : arg (COMMA arg)*
    ;

arg
    : (name=ID ASSIGN)? value=argValue
    ;

argValue
    : chunkRef
    | expr
    ;

expr
    : LPAREN expr RPAREN                                   # parenExpr
    | INT                                                  # intExpr
    | (TRUE | FALSE)                                       # boolExpr
    | ID                                                   # nameExpr
    | op=(MINUS | NOT) expr                                # unaryExpr
    | left=expr op=(STAR | SLASH | PERCENT) right=expr     # mulExpr
    | left=expr op=(PLUS | MINUS) right=expr               # addExpr
    | left=expr op=(LT | LE | GT | GE) right=expr          # relExpr
    | left=expr op=(EQ | NE) right=expr                    # eqExpr
    | left=expr ANDAND right=expr                          # andExpr
    | left=expr OROR right=expr                            # orExpr
    | <assoc=right> cond=expr QUESTION yes=expr COLON no=expr  # condExpr
    ;
