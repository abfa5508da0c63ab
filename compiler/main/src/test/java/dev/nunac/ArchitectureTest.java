package dev.nunac;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The module layering of the README's table, over the classes of every module: the modules
 * below the compiler know nothing of its driver, emitters or CLI; the front ends know only the
 * grammar and the core; inside the compiler only the CLI and the Java API know the CLI; and no
 * module has a package cycle.
 */
class ArchitectureTest {
    static final String[] CORE = {"dev.nunac.ir..", "dev.nunac.diag..", "dev.nunac.json..", "dev.nunac.pass.."};
    static final String[] TOPOLOGY = {"dev.nunac.topology.."};
    static final String[] PASSES = {"dev.nunac.passes.."};
    static final String[] RUNTIME = {"dev.nunac.runtime.."};
    static final String[] GRAMMAR = {"dev.nunac.parse.."};
    static final String[] FRONTEND = {"dev.nunac.frontend.."};
    static final String[] COMPILER = {"dev.nunac", "dev.nunac.cli..", "dev.nunac.compare..", "dev.nunac.driver..", "dev.nunac.emit..",
            "dev.nunac.sweep..", "dev.nunac.e2e.."};
    static final String[][] MODULES = {CORE, TOPOLOGY, PASSES, RUNTIME, GRAMMAR, FRONTEND, COMPILER};
    /** What only the compiler module holds: its driver, emitters, CLI and Java API. */
    static final String[] ABOVE = COMPILER;

    /** Production classes only: no test classes, whether from a folder or a test-jar. */
    static final JavaClasses ALL = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar")).importPackages("dev.nunac");

    @Test
    void everyPackageBelongsToAModuleOfTheTable() {
        classes().should().resideInAnyPackage(concat(CORE, TOPOLOGY, PASSES, RUNTIME, GRAMMAR, FRONTEND, COMPILER)).check(ALL);
        for (String[] module : MODULES) {
            assertTrue(of(module).size() > 0, () -> "no classes found in " + String.join(", ", module) + ": the rules would check nothing");
        }
    }

    @Test
    void nothingBelowTheCompilerKnowsItsDriverEmittersOrCli() {
        noClasses().that().resideInAnyPackage(concat(CORE, TOPOLOGY, PASSES, RUNTIME, GRAMMAR, FRONTEND)).should().dependOnClassesThat()
                .resideInAnyPackage(ABOVE).check(ALL);
    }

    @Test
    void onlyTheCliKnowsTheCli() {
        noClasses().that().resideInAnyPackage("dev.nunac.compare..", "dev.nunac.driver..", "dev.nunac.emit..", "dev.nunac.sweep..",
                        "dev.nunac.e2e..")
                .should().dependOnClassesThat().resideInAPackage("dev.nunac.cli..").check(ALL);
    }

    @Test
    void theFrontEndsKnowOnlyTheGrammarAndTheCore() {
        noClasses().that().resideInAnyPackage(FRONTEND).should().dependOnClassesThat()
                .resideInAnyPackage(concat(TOPOLOGY, PASSES, RUNTIME, ABOVE)).check(ALL);
    }

    @Test
    void noModuleHasAPackageCycle() {
        for (String[] module : MODULES) slices().matching("dev.nunac.(**)").should().beFreeOfCycles().check(of(module));
    }

    static JavaClasses of(String[] module) {
        return ALL.that(JavaClass.Predicates.resideInAnyPackage(module));
    }

    static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }
}
