package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell blocks of a documented section, run as written by bash: the one change is the
 * address, a test profile's free port for the documented 127.0.0.1:4590.
 */
final class DocumentedCommands {
    static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final String DOCUMENTED_ADDRESS = "http://127.0.0.1:4590";
    private static final Pattern CURL_VERSION = Pattern.compile("^curl (\\d+)\\.(\\d+)");
    private static final Pattern SHELL_BLOCK = Pattern.compile("(?ms)^```sh\\n(.*?)^```$");

    private DocumentedCommands() {}

    /** The sh blocks of the section that starts with {@code heading}, up to the next heading of its level. */
    static String shellBlocks(Path page, String heading, URI address) throws IOException {
        String text = Files.readString(page);
        int start = text.indexOf("\n" + heading + "\n");
        assertThat(start).as("%s in %s", heading, page).isNotNegative();
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        int end = text.indexOf("\n" + level, start + heading.length() + 1);
        String section = text.substring(start, end < 0 ? text.length() : end);
        List<String> blocks = new ArrayList<>();
        Matcher block = SHELL_BLOCK.matcher(section);
        while (block.find()) {
            blocks.add(block.group(1));
        }
        assertThat(blocks).as("sh blocks of %s", heading).isNotEmpty();
        String script = String.join("\n", blocks);
        assertThat(script).as("the documented address").contains(DOCUMENTED_ADDRESS);
        return script.replace(DOCUMENTED_ADDRESS, address.toString());
    }

    /** The script's standard output; bash -e stops at a command that fails, and the test at 120 s. */
    static String run(String script) throws IOException, InterruptedException {
        Path out = Files.createTempFile("gamefleet-quickstart-", ".out");
        Process bash = new ProcessBuilder("bash", "-e", "-c", script).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        bash.getOutputStream().close();
        boolean ended = bash.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            bash.destroyForcibly().waitFor();
        }
        String output = Files.readString(out);
        Files.delete(out);
        assertThat(ended).as("ended within 120 s:\n%s", output).isTrue();
        assertThat(bash.exitValue()).as(output).isZero();
        return output;
    }

    static void assumeCurlSignsSigV4() throws IOException, InterruptedException {
        assumeTrue(exitsZero("curl", "--version"), "curl is not installed here");
        Process curl = new ProcessBuilder("curl", "--version").redirectErrorStream(true).start();
        String version = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        curl.waitFor();
        Matcher v = CURL_VERSION.matcher(version);
        assumeTrue(v.find(), "curl --version did not say its version: " + version);
        int major = Integer.parseInt(v.group(1));
        int minor = Integer.parseInt(v.group(2));
        assumeTrue(major > 7 || major == 7 && minor >= 76,
                "curl " + major + "." + minor + " has no --aws-sigv4 or --fail-with-body (7.76 or newer has both)");
    }

    static boolean exitsZero(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
