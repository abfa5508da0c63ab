package dev.nunac.emit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.driver.CompileResult;
import dev.nunac.driver.PlanSource;
import dev.nunac.frontend.mscclpp.MscclppJsonImporter;
import dev.nunac.frontend.mscclpp.ThreadblockOrder;
import dev.nunac.ir.IrPrinter;
import dev.nunac.ir.PlanFormat;
import dev.nunac.passes.realise.Realised;
import java.util.ArrayList;
import java.util.List;

/**
 * The MSCCL++ execution plan with each gpu's threadblocks in launch order
 * ({@code --emit placed-json}). MSCCL++'s executor, like RCCL's, launches one block per
 * threadblock of a gpu with {@code blockIdx.x} = its position in the plan, so the same grid
 * order as {@link PlacedXml} (padding included) runs every threadblock on the die it was placed
 * on under a modulo dispatch rule. The plan file itself is rewritten ({@link ThreadblockOrder}),
 * not the IR exported, so every member the executor reads stays as it was; the output is
 * canonical JSON (sorted keys, 2-space indent).
 */
public final class PlacedMscclppJson {
    private PlacedMscclppJson() {}

    public static String emit(CompileResult r) {
        PlacedXml.refuseWithoutDispatchRule(r, "placed-json");
        if (r.plan().format() != PlanFormat.MSCCLPP_JSON) {
            throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--emit placed-json: the plan is not an MSCCL++ execution"
                    + " plan (.json); write placed-xml for an MSCCL-IR executor");
        }
        PlanSource src = r.source();
        if (src == null) throw new IllegalStateException("placed-json needs the plan file (CompileResult.withSource)");
        // The file is read again: it must still be the plan that was compiled.
        var again = MscclppJsonImporter.read(src.file(), src.bytes(), src.limits());
        if (!IrPrinter.print(again).equals(IrPrinter.print(r.plan()))) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(src.file()),
                    "the plan file no longer matches the plan compiled (was it changed while nunac ran?)");
        }
        List<int[]> grids = new ArrayList<>();
        for (Realised.RankLaunch l : r.realised().ranks()) grids.add(l.grid());
        return CanonicalJson.write(ThreadblockOrder.reorder(src.file(), src.bytes(), src.limits(), grids));
    }
}
