package dev.nunac.frontend.dsl;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import dev.nunac.frontend.SourceText;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.ir.PlanFormat;
import dev.nunac.ir.PlanLimits;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Threadblock;
import dev.nunac.parse.NunaLexer;
import dev.nunac.parse.NunaParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;
import org.antlr.v4.runtime.Token;

/**
 * The .msccl front end: lex, parse (errors to diagnostics, never to the console), evaluate,
 * assign threadblocks, replicate instances. Throws {@link CompileException} (kind PLAN, or
 * USAGE for a bad -D) with every error found.
 */
public final class DslFrontEnd {
    private DslFrontEnd() {}

    /**
     * ANTLR's two-stage parse: the fast SLL prediction first, which gives up at the first
     * problem; only then the full LL parse, whose error recovery and messages are the ones
     * users see. A valid plan never pays for full-context prediction.
     */
    private static NunaParser.FileContext parseTree(CommonTokenStream tokens, SyntaxErrors listener) {
        NunaParser parser = new NunaParser(tokens);
        parser.removeErrorListeners();
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        parser.setErrorHandler(new BailErrorStrategy());
        try {
            return parser.file();
        } catch (ParseCancellationException e) {
            tokens.seek(0);
            parser.reset();
            parser.addErrorListener(listener);
            parser.getInterpreter().setPredictionMode(PredictionMode.LL);
            parser.setErrorHandler(new DefaultErrorStrategy());
            return parser.file();
        }
    }

    public static Plan parse(SourceText src, Map<String, String> defines, Limits limits) {
        Diagnostics diags = new Diagnostics();
        NunaLexer lexer = new BoundedLexer(new AsciiView(CharStreams.fromString(src.text(), src.name())), src.name(), limits);
        lexer.removeErrorListeners();
        SyntaxErrors listener = new SyntaxErrors(src.name(), diags);
        lexer.addErrorListener(listener);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        // Cache every token's text: the interpreter reads names and numbers once per evaluation. A
        // name's text is interned, so that scopes find it by identity.
        for (Token t : tokens.getTokens()) {
            if (t instanceof org.antlr.v4.runtime.CommonToken ct && t.getType() != Token.EOF) {
                ct.setText(t.getType() == NunaLexer.ID ? ct.getText().intern() : ct.getText());
            }
        }
        int depth = 0;
        for (Token t : tokens.getTokens()) {
            if (t.getType() == NunaLexer.ERROR_CHAR) {
                diags.error(pos(src, t), "unexpected character " + printable(t.getText()));
            } else if (t.getType() == NunaLexer.UNTERMINATED_COMMENT) {
                diags.error(pos(src, t), "comment is not closed: '/*' without '*/'");
            } else if (t.getType() == NunaLexer.BAD_ESCAPE_STRING) {
                int i = badEscape(t.getText());
                diags.error(new SourcePos(src.name(), t.getLine(), t.getCharPositionInLine() + 1 + i), "unknown escape '\\"
                        + Text.shown(t.getText().substring(i + 1, i + 1 + Character.charCount(t.getText().codePointAt(i + 1))))
                        + "' in a string (a string knows \\\", \\\\, \\n and \\t)");
            } else if (t.getType() == NunaLexer.UNTERMINATED_STRING) {
                diags.error(pos(src, t), "string is not closed: missing '\"' before the end of the line");
            } else if (t.getType() == NunaLexer.LPAREN || t.getType() == NunaLexer.LBRACE) {
                if (++depth > limits.maxNesting()) {
                    diags.error(pos(src, t), "nesting deeper than " + limits.maxNesting()
                            + " levels (raise it with --limit nesting=N)");
                    break;
                }
            } else if (t.getType() == NunaLexer.RPAREN || t.getType() == NunaLexer.RBRACE) {
                depth = Math.max(0, depth - 1);
            }
        }
        diags.throwIfErrors(ErrorKind.PLAN);
        NunaParser.FileContext tree;
        try {
            tree = parseTree(tokens, listener);
        } catch (StackOverflowError e) {
            throw new CompileException(ErrorKind.PLAN, SourcePos.of(src.name()),
                    "the program is nested too deeply to parse");
        }
        diags.throwIfErrors(ErrorKind.PLAN);

        SourcePos cli = SourcePos.NONE;
        ProgramInterpreter.Result r;
        try {
            r = new ProgramInterpreter(src.name(), diags, limits).run(tree, defines, cli);
        } catch (StackOverflowError e) {
            throw new CompileException(ErrorKind.PLAN, SourcePos.of(src.name()),
                    "the program is nested too deeply to evaluate");
        }
        if (r == null) {
            boolean usage = diags.all().stream().allMatch(d -> d.pos() == SourcePos.NONE);
            diags.throwIfErrors(usage ? ErrorKind.USAGE : ErrorKind.PLAN);
            throw new IllegalStateException("interpreter failed without a diagnostic");
        }
        TreeMap<String, String> attrs = new TreeMap<>();
        if (r.root() != 0) attrs.put("root", String.valueOf(r.root()));
        for (Map.Entry<String, Long> p : r.params().entrySet()) attrs.put("param." + p.getKey(), String.valueOf(p.getValue()));
        Plan shape = new Plan(r.name(), r.collective(), r.ranks(), r.chunkFactor(), r.inplace(), r.protocol(), 1,
                List.of(), PlanFormat.DSL, attrs, r.pos());
        List<Buffer> buffers = new ArrayList<>();
        for (Map.Entry<String, Integer> b : r.buffers().entrySet()) {
            buffers.add(new Buffer(b.getKey(), Buffer.kindOf(b.getKey()), b.getValue()));
        }
        List<RankPlan> bare = new ArrayList<>(r.ranks());
        for (int i = 0; i < r.ranks(); i++) bare.add(new RankPlan(i, buffers, List.of()));
        // Replication multiplies every buffer, so the chunk count scales with the instances.
        PlanLimits.checkChunks(shape.withRankPlans(bare), r.instances(), limits);
        List<List<Threadblock>> tbs = ThreadblockAssignment.assign(shape, r.buffers(), r.ops(), diags, limits.maxThreadblocksPerRank());
        diags.throwIfErrors(ErrorKind.PLAN);
        List<RankPlan> rps = new ArrayList<>(r.ranks());
        for (int i = 0; i < r.ranks(); i++) rps.add(new RankPlan(i, buffers, tbs.get(i)));
        Plan plan = shape.withRankPlans(rps);
        if ((long) plan.stepCount() * r.instances() > limits.maxSteps()) {
            throw new CompileException(ErrorKind.PLAN, r.pos(), "replicating " + r.instances() + " instances gives more than "
                    + limits.maxSteps() + " steps (raise it with --limit steps=N)");
        }
        Plan out = InstanceReplication.replicate(plan, r.instances());
        // Like the importers, the front end hands out verified IR.
        dev.nunac.ir.IrVerifier.verify(out).throwIfErrors(ErrorKind.PLAN);
        return out;
    }

    private static SourcePos pos(SourceText src, Token t) {
        return new SourcePos(src.name(), t.getLine(), t.getCharPositionInLine() + 1);
    }

    private static String printable(String s) {
        int cp = s.codePointAt(0);
        // Invisible characters (a byte-order mark, a zero-width space, bidi marks) are shown by code point too.
        if (Text.isControl(cp) || cp == 0xfffd || Character.getType(cp) == Character.FORMAT) return Text.codePoint(cp);
        return "'" + s + "'";
    }

    /** The index of the backslash of the first escape a string token does not know. */
    private static int badEscape(String token) {
        for (int i = 1; i < token.length() - 1; i++) {
            if (token.charAt(i) != '\\') continue;
            if ("\"\\nt".indexOf(token.charAt(i + 1)) < 0) return i;
            i++;
        }
        return 0;
    }
}
