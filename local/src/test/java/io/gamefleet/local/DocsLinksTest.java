package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link in the README and docs/ leads to a file that exists and, with a #fragment,
 * to a heading of that file, by GitHub's anchors (lower case, punctuation dropped, spaces to
 * hyphens, "-1" and on for repeated headings). Links in code are not links and are not read.
 */
class DocsLinksTest {
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    /** [text](target) or [text](target "title"); an image's ![alt](src) too. */
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");

    @Test
    void everyLinkOfTheReadmeAndTheDocsResolves() {
        List<Path> pages = new ArrayList<>(List.of(REPOSITORY.resolve("README.md")));
        try (Stream<Path> docs = Files.list(REPOSITORY.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(pages).hasSizeGreaterThan(5);
        List<String> links = new ArrayList<>();
        pages.forEach(page -> links.addAll(links(page)));
        assertThat(links).as("links read").hasSizeGreaterThan(30);
        assertThat(broken(pages)).isEmpty();
    }

    @Test
    void theReadmeFitsOnAScreen() throws IOException {
        assertThat(Files.readAllLines(REPOSITORY.resolve("README.md"))).hasSizeLessThan(200);
    }

    @Test
    void aMissingFileOrHeadingIsReportedAndCodeIsNotRead(@TempDir Path dir) throws IOException {
        Path page = Files.writeString(dir.resolve("page.md"), String.join("\n",
                "# A page", "## Callers and `--principals`", "## Build and check (no AWS account needed)", "## Repeated",
                "## Repeated", "[ok](#callers-and---principals) [ok](#build-and-check-no-aws-account-needed)",
                "[ok](#repeated-1) [ok](other.md#a-heading) [web](https://example.com/#nothing) [ok](other.md)",
                "[gone](#no-such-heading) [gone](missing.md) [gone](other.md#nothing-here) [gone](#repeated-2)",
                "`[code](#not-a-link)`", "```sh", "# not a heading", "[code](#nor-this)", "```", ""));
        Files.writeString(dir.resolve("other.md"), "# Other\n## A heading\n");
        assertThat(broken(List.of(page))).containsExactly("page.md: #no-such-heading", "page.md: missing.md",
                "page.md: other.md#nothing-here", "page.md: #repeated-2");
    }

    /** "page: target" for each link of the pages that leads nowhere. */
    private static List<String> broken(List<Path> pages) {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            for (String target : links(page)) {
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue; // https:, mailto:: not ours to check
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(linked)) {
                    broken.add(page.getFileName() + ": " + target);
                } else if (hash >= 0 && !anchors.computeIfAbsent(linked, DocsLinksTest::anchors)
                        .contains(target.substring(hash + 1))) {
                    broken.add(page.getFileName() + ": " + target);
                }
            }
        }
        return broken;
    }

    /** The targets of the page's links, outside fenced code blocks and code spans. */
    private static List<String> links(Path page) {
        List<String> targets = new ArrayList<>();
        for (String line : prose(page)) {
            Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (link.find()) {
                targets.add(link.group(1));
            }
        }
        return targets;
    }

    /** GitHub's anchors of the page's headings. */
    private static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        if (!page.toString().endsWith(".md")) {
            return anchors;
        }
        for (String line : prose(page)) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = heading.group(2).toLowerCase(Locale.ROOT)
                        .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link in a heading keeps its text
                        .replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-');
                int times = seen.merge(slug, 1, Integer::sum);
                anchors.add(times == 1 ? slug : slug + "-" + (times - 1));
            }
        }
        return anchors;
    }

    /** The page's lines outside fenced code blocks. */
    private static List<String> prose(Path page) {
        List<String> lines = new ArrayList<>();
        boolean fenced = false;
        try {
            for (String line : Files.readAllLines(page)) {
                if (line.stripLeading().startsWith("```")) {
                    fenced = !fenced;
                } else if (!fenced) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }
}
