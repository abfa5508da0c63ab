package dev.nunac.passes.check;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.IrVerifier;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Transfers;
import dev.nunac.ir.Transfers.Endpoint;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.BasePass;
import dev.nunac.pass.Key;
import dev.nunac.pass.Stage;
import java.util.List;

/**
 * The plan checker: well-formedness (bounds, peers, the threadblock peer rule, dependency
 * targets), matched sends and receives, deadlock freedom, and the collective's postcondition by
 * symbolic execution over chunk identities. Custom collectives get all but the postcondition.
 */
public final class CheckPass extends BasePass {
    public CheckPass() {
        super("check", Stage.CHECKED, java.util.List.of(), Stage.PARSED);
    }

    /** The send/receive pairing the checker computed, kept for the passes after it. */
    public static final Key<Transfers> TRANSFERS = Key.of("transfers", Transfers.class);

    @Override
    public void run(Compilation c) {
        Transfers t = check(c.plan(), c.diagnostics());
        if (t != null) c.put(TRANSFERS, t);
    }

    /** Checks a plan; errors go to {@code d}. Returns the pairing of its transfers, or null if the IR is malformed. */
    public static Transfers check(Plan plan, Diagnostics d) {
        IrVerifier.verify(plan, d);
        if (d.hasErrors()) return null;
        Transfers transfers = Transfers.of(plan);
        List<Endpoint> unmatched = transfers.unmatched();
        for (int i = 0; i < Math.min(5, unmatched.size()); i++) {
            Endpoint e = unmatched.get(i);
            var tb = plan.rank(e.rank()).tb(e.tb());
            var s = tb.steps().get(e.step());
            String what = switch (s.op()) {
                case SIGNAL -> "signals rank " + s.peer() + ", which never waits for it";
                case WAIT -> "waits for a signal from rank " + s.peer() + " that is never sent";
                default -> s.op().receives && transfers.senderOf(e) == null
                        ? "receives from rank " + tb.recvPeer() + " on channel " + tb.channel() + ", which sends nothing to match it"
                        : "sends to rank " + tb.sendPeer() + " on channel " + tb.channel() + ", which receives nothing to match it";
            };
            d.error(s.pos().known() ? s.pos() : plan.pos(),
                    "rank " + e.rank() + " threadblock " + e.tb() + " step " + e.step() + " (" + s.op().mnemonic() + ") " + what);
        }
        if (unmatched.size() > 5) d.error(plan.pos(), (unmatched.size() - 5) + " more unmatched sends or receives");
        if (d.hasErrors()) return transfers;
        SymbolicExecution ex = new SymbolicExecution(plan, transfers);
        if (ex.run(d)) Postcondition.check(plan, ex, d);
        return transfers;
    }
}
