package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Needs an NVIDIA GPU whose SM count the table is rewritten for; excluded by default (gpu). */
@Tag("gpu")
class GpuBackendTest {
    @Test
    void cudaRunsTheTinyAllGatherWithReadback() {
        int sms;
        int dies;
        try (Session probe = NunaRuntime.open("cuda", null)) {
            String dev = probe.parsedReport().get("device");
            sms = Integer.parseInt(dev.replaceAll(".*, (\\d+) SMs.*", "$1"));
            dies = Integer.parseInt(dev.replaceAll(".*SMs, (\\d+) dies? assumed.*", "$1"));
        }
        String table = Tables.allgather2().replace("cus=8 dies=2", "cus=" + sms + " dies=" + dies).replace(" die=1 ", dies > 1 ? " die=1 " : " die=0 ");
        try (Session s = NunaRuntime.open("cuda", null)) {
            s.load(table).allocate().launch().verify();
            assertTrue(s.parsedReport().get("placement-fidelity").contains("device readback"), s.report());
            assertArrayEquals(Reference.output("allgather", 2, 1, 0, 0, 2, 4), s.output(0));
        }
    }
}
