package dev.nunac.cli;

import dev.nunac.ir.Limits;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** Options shared by the commands that read a plan: -D, --limit, --verbose. */
final class CommonOptions {
    private CommonOptions() {}

    static Options planOptions() {
        Options o = new Options();
        o.addOption(Option.builder("D").argName("name=value").hasArgs().valueSeparator('=')
                .desc("override a plan parameter (repeatable), e.g. -D ranks=16").get());
        o.addOption(Option.builder().longOpt("limit").argName("name=value").hasArg()
                .desc("change a resource limit (repeatable): " + Limits.NAMES).get());
        o.addOption(Option.builder().longOpt("verbose").desc("show internal details of failures").get());
        return o;
    }

    static Map<String, String> defines(CommandLine cl) {
        Properties p = cl.getOptionProperties("D");
        Map<String, String> m = new TreeMap<>();
        for (String k : p.stringPropertyNames()) {
            String v = p.getProperty(k);
            if (v == null || v.isEmpty()) throw new UsageException(null, "-D " + k + " needs a value: -D " + k + "=VALUE");
            m.put(k, v);
        }
        return m;
    }

    static Limits limits(CommandLine cl) {
        Limits l = Limits.DEFAULT;
        String[] vals = cl.getOptionValues("limit");
        if (vals == null) return l;
        for (String s : vals) {
            int eq = s.indexOf('=');
            if (eq <= 0) throw new UsageException(null, "--limit expects NAME=VALUE, got '" + s + "'");
            long v;
            try {
                v = Long.parseLong(s.substring(eq + 1).trim());
            } catch (NumberFormatException e) {
                throw new UsageException(null, "--limit " + s + ": not an integer");
            }
            if (v < 1) throw new UsageException(null, "--limit " + s + ": must be positive");
            try {
                l = l.with(s.substring(0, eq).trim(), v);
            } catch (IllegalArgumentException e) {
                throw new UsageException(null, "--limit: " + e.getMessage());
            }
        }
        return l;
    }

    /** The single PLAN argument of a command. */
    static Path onePlan(CommandLine cl, String command) {
        List<String> args = cl.getArgList();
        if (args.isEmpty()) throw new UsageException(command, "missing PLAN argument");
        if (args.size() > 1) throw new UsageException(command, "expected one PLAN, got " + args.size() + ": " + String.join(" ", args));
        return Path.of(args.get(0));
    }
}
