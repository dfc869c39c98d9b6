package io.gamefleet.api;

import io.gamefleet.wiring.CallerRole;
import static io.gamefleet.api.RestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.gamefleet.catalog.Role;
import io.gamefleet.domain.Caller;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The IAM identity of a request, and the instance binding the domain gets from it. */
class IamCallerTest {
    private static IamCaller of(String userArn) {
        return IamCaller.of(event("GET", "/", null, null, null, userArn));
    }

    @Test
    void anAssumedRoleSessionGivesAccountRoleAndSession() {
        IamCaller caller = of("arn:aws:sts::123456789012:assumed-role/gamefleet-matchmaker/mm-1");
        assertThat(caller).isEqualTo(new IamCaller("aws", "123456789012", Optional.of("gamefleet-matchmaker"),
                Optional.of(io.gamefleet.catalog.LocalAccount.roleId(Role.MATCHMAKER)), Optional.of("mm-1")));
        assertThat(caller.domainCaller(Optional.of(Role.MATCHMAKER))).isEqualTo(Caller.UNBOUND);
        assertThat(of("arn:aws-cn:sts::123456789012:assumed-role/r/s").roleName()).contains("r");
    }

    @Test
    void aSessionNamedAfterAnInstanceIsBoundToIt() {
        assertThat(of("arn:aws:sts::123456789012:assumed-role/gamefleet-game-server/i-0123456789abcdef0")
                .domainCaller(Optional.of(Role.GAME_SERVER)).boundInstanceId()).contains("i-0123456789abcdef0");
        // Bound, but vouched for only as a session of the GAME_SERVER role, which only EC2 can assume.
        assertThat(of("arn:aws:sts::123456789012:assumed-role/gamefleet-game-server/i-0123456789abcdef0")
                .domainCaller(Optional.of(Role.GAME_SERVER)).instanceVerified()).isTrue();
        assertThat(of("arn:aws:sts::123456789012:assumed-role/other/i-0123456789abcdef0")
                .domainCaller(Optional.empty()).instanceVerified()).isFalse();
        assertThat(of("arn:aws:sts::123456789012:assumed-role/gamefleet-game-server/i-0123456789abcdef")
                .domainCaller(Optional.of(Role.GAME_SERVER))).isEqualTo(Caller.UNBOUND);
    }

    /** A container group's task: its role's session is named after the task, its instance id the task's. */
    @Test
    void aSessionNamedAfterATaskIsBoundToItsInstanceId() {
        Caller task = of("arn:aws:sts::123456789012:assumed-role/gamefleet-game-server/0123456789abcdef0123456789abcdef")
                .domainCaller(Optional.of(Role.GAME_SERVER));
        assertThat(task).isEqualTo(Caller.onInstance("i-0123456789abcdef0"));
        assertThat(of("arn:aws:sts::123456789012:assumed-role/gamefleet-game-server/0123456789ABCDEF0123456789abcdef")
                .domainCaller(Optional.of(Role.GAME_SERVER))).as("not ECS's spelling").isEqualTo(Caller.UNBOUND);
        assertThat(of("arn:aws:sts::123456789012:assumed-role/gamefleet-game-server/0123456789abcdef0123456789abcde")
                .domainCaller(Optional.of(Role.GAME_SERVER))).isEqualTo(Caller.UNBOUND);
    }

    @Test
    void otherIdentitiesKeepOnlyTheirAccount() {
        assertThat(of("arn:aws:iam::000000000000:user/alice"))
                .isEqualTo(new IamCaller("", "000000000000", Optional.empty(), Optional.empty(), Optional.empty()));
        assertThat(of("arn:aws:sts::123456789012:assumed-role/r/s/extra").roleName()).isEmpty();
        APIGatewayV2HTTPEvent noArn = event("GET", "/", null, null, null, "x");
        noArn.getRequestContext().getAuthorizer().getIam().setUserArn(null);
        noArn.getRequestContext().getAuthorizer().getIam().setAccountId(null);
        assertThat(IamCaller.of(noArn)).isEqualTo(new IamCaller("", "", Optional.empty(), Optional.empty(), Optional.empty()));
    }

    private static IamCaller session(String userArn, String userId) {
        APIGatewayV2HTTPEvent event = event("GET", "/", null, null, null, userArn);
        event.getRequestContext().getAuthorizer().getIam().setUserId(userId);
        return IamCaller.of(event);
    }

    /** A caller role is recognised by partition, account, name and unique id, all four. */
    @Test
    void aSessionIsOfACallerRoleOnlyWithItsPartitionAccountNameAndUniqueId() {
        Map<Role, CallerRole> roles = Map.of(Role.ADMIN,
                new CallerRole("arn:aws:iam::123456789012:role/ops/gamefleet-admin", "AROAADMINROLEID000001"));
        String session = "arn:aws:sts::123456789012:assumed-role/gamefleet-admin/alice";
        assertThat(session(session, "AROAADMINROLEID000001:alice").roleIn(roles)).contains(Role.ADMIN);
        assertThat(session(session, "AROAADMINROLEID000001:alice").roleUniqueId()).contains("AROAADMINROLEID000001");
        // The role deleted and created again under its name: another id, another principal.
        assertThat(session(session, "AROARECREATEDROLE0002:alice").roleIn(roles)).isEmpty();
        assertThat(session(session, null).roleIn(roles)).isEmpty();
        assertThat(session(session, "AROAADMINROLEID000001:bob").roleIn(roles)).isEmpty();
        // Same account number and name in another partition.
        assertThat(session("arn:aws-cn:sts::123456789012:assumed-role/gamefleet-admin/alice",
                "AROAADMINROLEID000001:alice").roleIn(roles)).isEmpty();
        assertThat(session("arn:aws:sts::210987654321:assumed-role/gamefleet-admin/alice",
                "AROAADMINROLEID000001:alice").roleIn(roles)).isEmpty();
        // A deployment that does not know the id admits nobody through it.
        assertThat(session(session, "AROAADMINROLEID000001:alice").roleIn(Map.of(Role.ADMIN,
                new CallerRole("arn:aws:iam::123456789012:role/ops/gamefleet-admin", "")))).isEmpty();
    }

    @Test
    void noVerifiedIdentityIsAnonymous() {
        assertThat(IamCaller.of(event("GET", "/", null, null, null))).isSameAs(IamCaller.ANONYMOUS);
        assertThat(IamCaller.of(APIGatewayV2HTTPEvent.builder().build())).isSameAs(IamCaller.ANONYMOUS);
        APIGatewayV2HTTPEvent noIam = event("GET", "/", null, null, null, "x");
        noIam.getRequestContext().getAuthorizer().setIam(null);
        assertThat(IamCaller.of(noIam)).isSameAs(IamCaller.ANONYMOUS);
        assertThat(IamCaller.ANONYMOUS.domainCaller(Optional.empty())).isEqualTo(Caller.UNBOUND);
    }
}
