package dev.nunac.passes;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The passes are functions of the compilation: they read no files and print nothing. Input and
 * output belong to the front ends, the emitters and the CLI, which report their own errors.
 */
class NoIoTest {
    static final ArchRule NO_FILES = noClasses().that().resideInAPackage("dev.nunac.passes..").should().dependOnClassesThat()
            .haveNameMatching("java\\.io\\.File.*|java\\.io\\.RandomAccessFile|java\\.nio\\.file\\..*|java\\.nio\\.channels\\..*");

    static final ArchRule NO_PRINTING = noClasses().that().resideInAPackage("dev.nunac.passes..").should()
            .accessField(System.class, "out").orShould().accessField(System.class, "err")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.PrintStream");

    @Test
    void noPassTouchesFiles() {
        NO_FILES.check(LayeringTest.PASSES);
    }

    @Test
    void noPassPrints() {
        NO_PRINTING.check(LayeringTest.PASSES);
    }

    /** What the rules must catch. */
    static final class Offender {
        static String read(Path p) throws IOException {
            String s = Files.readString(p);
            System.err.println(s);
            return s;
        }
    }

    @Test
    void theRulesCatchAClassThatReadsAndPrints() {
        JavaClasses offender = new ClassFileImporter().importClasses(Offender.class);
        assertTrue(NO_FILES.evaluate(offender).hasViolation());
        assertTrue(NO_PRINTING.evaluate(offender).hasViolation());
    }
}
