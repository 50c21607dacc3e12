package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.catalogue.Catalogue;
import dev.oneread.operations.Descriptor;
import dev.oneread.operations.Input;
import dev.oneread.operations.Operation;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;

/**
 * The expression builder's pattern list as a person sees it: the key condition, then every operation the catalogue
 * offers the console, each named with its route, in the list's order (the page writes none: ConsolePatternsTest);
 * and choosing one shows the fields it reads, its inputs, and no other.
 */
@UsesBrowser
class ConsolePatternsBrowserTest {
    @Test
    void patternList_shouldBeTheCataloguesOperations_eachShowingTheFieldsItReads() throws Exception {
        try (ConsolePage page = ConsolePage.start(
                TestEngine.get(),
                "console-patterns-" + UUID.randomUUID().toString().substring(0, 8))) {
            // GIVEN the console, live (its patterns are loaded before it starts)
            page.open();
            ChromeDriver browser = page.browser();
            Select pattern = new Select(browser.findElement(By.id("pattern")));

            // THEN the key condition, then the catalogue's console operations by name and route
            List<Operation> offered = Catalogue.offeredIn(Catalogue.Tool.CONSOLE);
            List<String> values = new ArrayList<>(List.of("custom"));
            List<String> labels = new ArrayList<>(List.of("key condition"));
            for (Operation operation : offered) {
                values.add(operation.descriptor().name());
                labels.add(operation.descriptor().name() + " ("
                        + operation.descriptor().route() + ")");
            }
            assertThat(pattern.getOptions().stream().map(o -> o.getAttribute("value")))
                    .as("the builder's patterns against the catalogue's console operations")
                    .containsExactlyElementsOf(values);
            assertThat(pattern.getOptions().stream().map(WebElement::getText)).containsExactlyElementsOf(labels);

            // WHEN each is chosen THEN the form shows the fields it reads, and the key condition's only for it
            for (Operation operation : offered) {
                Descriptor descriptor = operation.descriptor();
                pattern.selectByValue(descriptor.name());
                assertThat(shown(browser))
                        .as(descriptor.name())
                        .containsExactly(
                                false,
                                descriptor.inputs().contains(Input.WORKSPACE),
                                descriptor.inputs().contains(Input.PROJECT));
            }
            pattern.selectByValue("custom");
            assertThat(shown(browser)).as("custom").containsExactly(true, false, false);
        }
    }

    /** Whether the key condition's partition, the workspace and the project id fields are shown, in that order. */
    private static List<Boolean> shown(ChromeDriver browser) {
        return List.of(
                browser.findElement(By.id("partition")).isDisplayed(),
                browser.findElement(By.id("workspace")).isDisplayed(),
                browser.findElement(By.id("project-id")).isDisplayed());
    }
}
