package io.tileseeder.server.access;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Checks a bearer token against the tokens file: the identity is the token's name with its role (and
 * {@code read} for a {@code write} token); an unknown token fails authentication.
 */
@ApplicationScoped
public class TokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    /** The identity's attribute holding the role written in the tokens file. */
    public static final String ROLE = "seeder.role";

    private final Access access;

    public TokenIdentityProvider(Access access) {
        this.access = access;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        return access.tokens().find(request.getToken().getToken())
                .<Uni<SecurityIdentity>>map(token -> Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                        .setPrincipal(new QuarkusPrincipal(token.name()))
                        .addRoles(Roles.granted(token.role()))
                        .addAttribute(ROLE, token.role())
                        .build()))
                .orElseGet(() -> Uni.createFrom().failure(new AuthenticationFailedException("unknown token")));
    }
}
