package io.tileseeder.server.access;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Locale;
import java.util.Set;

/**
 * Takes the token of an {@code Authorization: Bearer TOKEN} header to {@link TokenIdentityProvider}. A request
 * without one stays anonymous (and is refused by the endpoints that need a role); while auth is off the header
 * is ignored.
 */
@ApplicationScoped
public class BearerTokenMechanism implements HttpAuthenticationMechanism {

    static final String SCHEME = "Bearer";
    private static final String PREFIX = SCHEME.toLowerCase(Locale.ROOT) + " ";
    private static final ChallengeData CHALLENGE = new ChallengeData(401, HttpHeaderNames.WWW_AUTHENTICATE, SCHEME);

    private final Access access;

    public BearerTokenMechanism(Access access) {
        this.access = access;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        String header = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (!access.enabled() || header == null || !header.toLowerCase(Locale.ROOT).startsWith(PREFIX)) {
            return Uni.createFrom().nullItem();
        }
        String token = header.substring(PREFIX.length()).strip();
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(
                new TokenAuthenticationRequest(new TokenCredential(token, SCHEME.toLowerCase(Locale.ROOT))), context));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(CHALLENGE);
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TokenAuthenticationRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION,
                SCHEME.toLowerCase(Locale.ROOT)));
    }
}
