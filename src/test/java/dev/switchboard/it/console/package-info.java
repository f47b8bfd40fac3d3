/**
 * The web console in Debian's Chromium: walkthroughs of {@code src/test/node} driven by playwright-core
 * ({@link dev.switchboard.it.console.BrowserWalkthrough}), then what the browser did checked through the REST API.
 */
package dev.switchboard.it.console;
