package io.tileseeder.server.access;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Without a tokens file (the embedded mode's default) the API is open: every caller, anonymous included, gets
 * both roles, so the same {@code @RolesAllowed} endpoints serve both cases.
 */
@ApplicationScoped
public class OpenAccessAugmentor implements SecurityIdentityAugmentor {

    private final Access access;

    public OpenAccessAugmentor(Access access) {
        this.access = access;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (access.enabled()) {
            return Uni.createFrom().item(identity);
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder(identity)
                .addRole(Roles.READ).addRole(Roles.WRITE).build());
    }
}
