package dev.nunac.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import dev.nunac.pass.Pass;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every pass, and every public class of the placement and cost libraries the search uses, has a unit test beside it. */
class EveryPassIsTestedTest {
    static boolean tested(JavaClass c) {
        try {
            Class.forName(c.getName() + "Test", false, EveryPassIsTestedTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** By reflection: the imported classes' supertypes outside the passes are not imported (archunit.properties). */
    static boolean isPass(JavaClass c) {
        try {
            Class<?> k = Class.forName(c.getName(), false, EveryPassIsTestedTest.class.getClassLoader());
            return Pass.class.isAssignableFrom(k) && !java.lang.reflect.Modifier.isAbstract(k.getModifiers());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void everyPassClassHasATestClassOfItsOwnName() {
        List<String> passes = new ArrayList<>(), untested = new ArrayList<>();
        for (JavaClass c : LayeringTest.PASSES) {
            if (isPass(c)) {
                passes.add(c.getSimpleName());
                if (!tested(c)) untested.add(c.getName());
            }
        }
        assertEquals(5, passes.size(), () -> "passes found: " + passes);
        assertEquals(List.of(), untested);
    }

    @Test
    void theLibrariesBelowTheSearchAreTested() {
        for (String name : List.of("place.Placer", "place.PageAllocator", "place.DomainAssignment", "place.PlacementMetrics",
                "cost.AnalyticModel", "cost.Simulator", "cost.IdealBound", "search.Refinement")) {
            JavaClass c = LayeringTest.PASSES.get("dev.nunac.passes." + name);
            assertTrue(tested(c), c.getName() + " has no " + c.getSimpleName() + "Test");
        }
    }
}
