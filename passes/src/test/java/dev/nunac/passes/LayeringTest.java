package dev.nunac.passes;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The passes form layers, and no two packages depend on each other: access analysis and
 * allocation below the placement library, the cost models above it, the search above them all.
 */
class LayeringTest {
    static final JavaClasses PASSES = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.nunac.passes");

    @Test
    void noPackageCycles() {
        slices().matching("dev.nunac.passes.(*)..").should().beFreeOfCycles().check(PASSES);
    }

    @Test
    void theSearchIsTheOnlyPackageThatScoresCandidates() {
        noClasses().that().resideInAnyPackage("dev.nunac.passes.place..", "dev.nunac.passes.cost..", "dev.nunac.passes.alloc..",
                "dev.nunac.passes.access..").should().dependOnClassesThat().resideInAPackage("dev.nunac.passes.search..").check(PASSES);
    }

    @Test
    void placementKnowsNoCostModel() {
        noClasses().that().resideInAPackage("dev.nunac.passes.place..").should().dependOnClassesThat()
                .resideInAPackage("dev.nunac.passes.cost..").check(PASSES);
    }

    @Test
    void analysesBelowPlacementKnowNothingAboveThem() {
        noClasses().that().resideInAnyPackage("dev.nunac.passes.access..", "dev.nunac.passes.alloc..", "dev.nunac.passes.check..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.nunac.passes.place..", "dev.nunac.passes.cost..",
                        "dev.nunac.passes.realise..")
                .check(PASSES);
    }
}
