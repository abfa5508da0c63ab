package dev.nunac.cli;

import java.util.ListResourceBundle;

/**
 * The parts of the help that come from the code (the limits' maxima, the policies, outputs and
 * passes), for picocli's {@code ${bundle:KEY}} in option descriptions, which must be constants.
 * The keys have a dot so that picocli never takes one for an option's description key.
 */
final class HelpValues extends ListResourceBundle {
    @Override
    protected Object[][] getContents() {
        return new Object[][] {
            {"list.limits", dev.nunac.ir.Limits.maxima()},
            {"list.policies", dev.nunac.passes.place.Policy.ids()},
            {"list.outputs", String.join(", ", dev.nunac.emit.Output.ids(false))},
            {"list.default-outputs", String.join(",", dev.nunac.emit.Output.ids(true))},
            {"list.passes", String.join(", ", dev.nunac.driver.Driver.PIPELINE.names())},
        };
    }
}
