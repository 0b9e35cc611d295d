package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * An option value that is not of its kind (an instant, a whole number, true or false) is refused naming the option
 * and what it takes, in the command line's words: no Java type, exception or Java name of a kind of value. These
 * are refused while the arguments are parsed, before a command runs, so no engine is needed.
 */
class OptionValuesTest {

    /** Java in a message: a qualified name, an exception, a class, Java's names of value kinds, ISO durations. */
    private static final Pattern JAVA = Pattern.compile("\\bjava\\.|Exception|\\bclass\\b|\\bint\\b|\\blong\\b"
            + "|\\bboolean\\b|cannot convert|Invalid value");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "seed --layer world --zoom 0 --refresh-before yesterday"
                    + "|--refresh-before: 'yesterday' is not an instant; give one like 2026-11-26T12:00:00Z (UTC) or "
                    + "2026-11-26T13:00:00+01:00",
            "submit --server http://127.0.0.1:1 --layer world --zoom 0 --refresh-before 2026-11-26"
                    + "|--refresh-before: '2026-11-26' is not an instant; give one like 2026-11-26T12:00:00Z (UTC) or "
                    + "2026-11-26T13:00:00+01:00",
            "seed --layer world --zoom 0 --threads x|--threads: 'x' is not a whole number",
            "seed --layer world --zoom 0 --threads 4.5|--threads: '4.5' is not a whole number",
            "seed --layer world --zoom 0 --threads 99999999999|--threads: '99999999999' is too large a number",
            "submit --server http://127.0.0.1:1 --layer world --zoom 0 --priority 1.5"
                    + "|--priority: '1.5' is not a whole number",
            "submit --server http://127.0.0.1:1 --layer world --zoom 0 --priority -99999999999"
                    + "|--priority: '-99999999999' is too small a number",
            "submit --server http://127.0.0.1:1 --layer world --zoom 0 --wait=maybe|--wait: 'maybe' is not true or false",
            "serve --port eighty|--port: 'eighty' is not a whole number",
            "serve --management-port 9e3|--management-port: '9e3' is not a whole number",
            "worker --port 1.0|--port: '1.0' is not a whole number"})
    void aValueOfAnotherKindIsRefusedNamingTheOptionInPlainWords(String args, String expected) {
        Run run = run(args.split(" "));

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).as(run.err()).containsExactly("error: " + expected);
        assertThat(run.err()).doesNotContainPattern(JAVA);
    }

    @Test
    void anInstantWithAnOffsetAndAFlagWithAValueAreRead() {
        assertThat(Converters.instant("2026-11-26T13:00:00+01:00")).isEqualTo(Instant.parse("2026-11-26T12:00:00Z"));
        assertThat(Converters.instant(" 2026-11-26T12:00:00Z ")).isEqualTo(Instant.parse("2026-11-26T12:00:00Z"));
        assertThat(Converters.trueOrFalse("FALSE")).isFalse();
        assertThat(Converters.trueOrFalse("true")).isTrue();
        assertThat(Converters.wholeNumber("+7")).isEqualTo(7);
        assertThat(Converters.wholeNumber("-2147483648")).isEqualTo(Integer.MIN_VALUE);
    }

    private static Run run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = SeederMain.commandLine(null, null, null, Map.of());
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        int status = cli.execute(args);
        return new Run(status, err.toString());
    }

    private record Run(int status, String err) {
        List<String> errorLines() {
            return Arrays.stream(err.split("\\R")).filter(line -> line.startsWith("error:")).toList();
        }
    }
}
