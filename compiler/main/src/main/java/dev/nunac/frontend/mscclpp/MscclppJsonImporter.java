package dev.nunac.frontend.mscclpp;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;

public final class MscclppJsonImporter {
    private MscclppJsonImporter() {}

    public static Plan read(String file, byte[] bytes, Limits limits) {
        throw new CompileException(ErrorKind.INPUT, SourcePos.of(file), "not yet");
    }
}
