package dev.switchboard.llm;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterTypeDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Adds one {@link ProviderCalls} bean per configured LLM provider, qualified {@link LlmProvider @LlmProvider(name)}, so
 * that each provider has a circuit breaker of its own.
 * <p>
 * MicroProfile Fault Tolerance keeps a breaker's state per guarded method of a bean, never per object, and has no
 * programmatic API in Liberty; the providers are known from configuration at start, so one bean each is possible.
 * Liberty's implementation (26.0.0.3, Fault Tolerance 4.0) keys that state by the CDI bean and the method, so the
 * beans this extension adds from the one class hold one breaker each; the specification words the identity as "the
 * bean class and the guarded method" and does not say what happens for two beans of one class, so
 * {@code FaultToleranceInServerIT} checks on every build that one provider's open breaker leaves the others closed.
 */
public class ProviderBreakers implements Extension {

    void onePerProvider(@Observes AfterTypeDiscovery types) {
        for (String name : LlmProviders.names(ConfigProvider.getConfig(ProviderBreakers.class.getClassLoader()))) {
            types.addAnnotatedType(ProviderCalls.class, ProviderCalls.class.getName() + "/" + name)
                    .add(ApplicationScoped.Literal.INSTANCE)
                    .add(LlmProvider.Literal.of(name));
        }
    }
}
