package dev.nunac.testkit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostic;
import dev.nunac.diag.ErrorKind;
import java.util.List;
import java.util.function.Supplier;

/** What a front end call ended with: the error kind and formatted diagnostics, or success. */
public record Outcome(ErrorKind kind, List<String> messages) {
    public static Outcome of(Supplier<?> call) {
        try {
            call.get();
            return new Outcome(null, List.of());
        } catch (CompileException e) {
            return new Outcome(e.kind(), e.diagnostics().stream().map(Diagnostic::format).toList());
        }
    }

    public String first() {
        return messages.isEmpty() ? "" : messages.get(0);
    }
}
