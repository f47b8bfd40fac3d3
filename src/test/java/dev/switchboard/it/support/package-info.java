/**
 * What the integration tests of several rooms share. {@link dev.switchboard.it.support.Api} is the HTTP client of the
 * IT server; the fixtures are JUnit extensions a test class registers with {@code @RegisterExtension} (started before
 * its tests, removed after): {@link dev.switchboard.it.support.ScriptedLlm}, {@link dev.switchboard.it.support.NewUser},
 * {@link dev.switchboard.it.support.SharedEverything}, {@link dev.switchboard.it.support.RunningEverything},
 * {@link dev.switchboard.it.support.EverythingAssistant}, {@link dev.switchboard.it.support.PolicyTenant},
 * {@link dev.switchboard.it.support.Leftovers}. A helper only one room uses lives in that room's package.
 */
package dev.switchboard.it.support;
