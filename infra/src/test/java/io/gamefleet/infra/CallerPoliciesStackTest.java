package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The callers' managed policies (CallerPolicies): each role reaches exactly its routes. */
class CallerPoliciesStackTest extends SynthesizedStack {
    /** The HTTP API's routes; the push channel's $connect has a statement of its own (PushChannelStackTest). */
    private Map<String, Object> routeStatement(Role role) {
        List<Map<String, Object>> statements = statements(role, "Allow");
        assertThat(statements).as(role.name()).hasSize(1);
        return statements.get(0);
    }

    private List<Map<String, Object>> statements(Role role, String effect) {
        Map<String, Object> policy = props(resources.get(callerPolicyId(role)));
        return listOf(map(policy.get("PolicyDocument")).get("Statement")).stream()
                .map(SynthesizedStack::map).filter(s -> !"ConnectPushChannel".equals(s.get("Sid")))
                .filter(s -> effect.equals(s.get("Effect"))).toList();
    }

    /** What the role's policy lets through to this ARN: an Allow's pattern matches it, and no Deny's. */
    private boolean reaches(Role role, List<Pattern> allowed, String arn) {
        List<Pattern> denied = statements(role, "Deny").stream().flatMap(s -> resourcesOf(s).stream())
                .map(SynthesizedStack::render).map(SynthesizedStack::iamGlob).toList();
        return allowed.stream().anyMatch(p -> p.matcher(arn).matches()) && denied.stream().noneMatch(p -> p.matcher(arn).matches());
    }

    @Test
    void callerPoliciesGrantExactlyTheirRoutes() {
        String apiRef = "<" + httpApiId() + ">";
        for (Role role : Role.values()) {
            Map<String, Object> statement = routeStatement(role);
            assertThat(actions(statement)).containsExactly("execute-api:Invoke");
            Set<String> granted = resourcesOf(statement).stream().map(SynthesizedStack::render)
                    .collect(Collectors.toSet());
            String prefix = "arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:" + apiRef + "/$default/";
            Set<String> expected = new HashSet<>();
            for (Route r : Routes.ALL) {
                if (r.roles().contains(role)) {
                    expected.add(prefix + r.method() + r.path().replaceAll("\\{[^}]+}", "?*"));
                    expected.add(prefix + "POST/service/GameLift/operation/" + r.operation().fleetIqName());
                }
            }
            for (ExtensionRoute e : Routes.EXTENSIONS) {
                if (e.roles().contains(role)) {
                    expected.add(prefix + e.method() + e.path().replaceAll("\\{[^}]+}", "?*"));
                }
            }
            expected.add(prefix + "POST/");
            assertThat(granted).as(role.name()).isEqualTo(expected);
        }
    }

    /** IAM's '*' also matches '/': no role's patterns may reach a route it does not have. */
    @Test
    void callerPoliciesReachNoOtherRouteThroughTheirWildcards() {
        String prefix = "arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<" + httpApiId() + ">";
        for (Role role : Role.values()) {
            Map<String, Object> statement = routeStatement(role);
            List<Pattern> patterns = resourcesOf(statement).stream().map(SynthesizedStack::render)
                    .map(SynthesizedStack::iamGlob).toList();
            for (Route route : Routes.ALL) {
                for (String group : List.of("arena", "arena-eu.1")) {
                    String path = route.path().replace("{GameServerGroupName}", group)
                            .replace("{GameServerId}", "match-1");
                    String arn = prefix + "/$default/" + route.method() + path;
                    assertThat(reaches(role, patterns, arn)).as(role + " -> " + route.operation())
                            .isEqualTo(route.roles().contains(role));
                    String cbor = prefix + "/$default/POST" + route.operation().cborPath();
                    assertThat(patterns.stream().anyMatch(p -> p.matcher(cbor).matches()))
                            .as(role + " -> CBOR " + route.operation()).isEqualTo(route.roles().contains(role));
                }
                // An empty last path parameter (GET .../game-servers/, which HTTP APIs may route as
                // ListGameServers) reaches only a role that has the route it may be routed to.
                if (route.path().endsWith("}")) {
                    String parent = route.path().substring(0, route.path().lastIndexOf('/'));
                    String arn = prefix + "/$default/" + route.method()
                            + (parent + "/").replaceAll("\\{[^}]+}", "arena");
                    List<Route> parents = Routes.ALL.stream().filter(r -> r.method().equals(route.method())
                            && r.path().equals(parent)).toList();
                    if (parents.stream().anyMatch(r -> !r.roles().contains(role))) {
                        assertThat(patterns.stream().noneMatch(p -> p.matcher(arn).matches())).as(role + " -> " + arn)
                                .isTrue();
                    }
                }
            }
            // Gamefleet's own routes, below paths other roles' wildcards take (GET .../game-servers/?*).
            for (ExtensionRoute extension : Routes.EXTENSIONS) {
                for (String group : List.of("arena", "arena-eu.1")) {
                    String arn = prefix + "/$default/" + extension.method() + extension.path()
                            .replace("{GameServerGroupName}", group).replace("{GameServerId}", "match-1");
                    assertThat(reaches(role, patterns, arn)).as(role + " -> " + extension.name())
                            .isEqualTo(extension.roles().contains(role));
                }
            }
        }
    }
}
