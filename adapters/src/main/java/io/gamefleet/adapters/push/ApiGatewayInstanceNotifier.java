package io.gamefleet.adapters.push;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceNotifier;
import io.gamefleet.domain.Session;
import java.time.Instant;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.apigatewaymanagementapi.ApiGatewayManagementApiClient;
import software.amazon.awssdk.services.apigatewaymanagementapi.model.GoneException;

/**
 * Notices posted to an agent's connection through API Gateway's management API (PostToConnection),
 * as text frames of JSON (docs/architecture.md, "The push channel"). The client's endpoint is the
 * WebSocket API's stage in AWS, the local edge locally; a 410 is {@link Delivery#GONE}.
 */
public final class ApiGatewayInstanceNotifier implements InstanceNotifier {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ApiGatewayManagementApiClient client;

    public ApiGatewayInstanceNotifier(ApiGatewayManagementApiClient client) {
        this.client = client;
    }

    @Override
    public Delivery claimed(String connectionId, GameServer server, Optional<Session> session) {
        ObjectNode notice = notice(PushChannel.CLAIMED, server);
        notice.put("gameServerData", server.gameServerData());
        notice.put("claimedAt", text(server.lastClaimTime()));
        notice.put("claimExpiresAt", text(server.claimExpiresAt()));
        session.ifPresent(s -> {
            ObjectNode member = notice.putObject(PushChannel.SESSION).put(PushChannel.SESSION_ID, s.sessionId());
            if (s.request().sessionCookie() != null) {
                member.put(PushChannel.SESSION_COOKIE, s.request().sessionCookie());
            }
            ArrayNode players = member.putArray(PushChannel.INITIAL_PLAYERS);
            s.request().initialPlayers().forEach(players::add);
        });
        return post(connectionId, notice);
    }

    @Override
    public Delivery terminate(String connectionId, GameServer server, String reason) {
        return post(connectionId, notice(PushChannel.TERMINATE, server).put(PushChannel.REASON, reason));
    }

    /** The instance's end as ISO-8601 UTC, its reason the maximum lifetime (the contract of issue 28). */
    @Override
    public Delivery retiring(String connectionId, GameServerInstance instance, Instant retiresAt) {
        return post(connectionId, JSON.createObjectNode().put("action", PushChannel.RETIRING)
                .put("gameServerGroupName", instance.gameServerGroupName())
                .put(PushChannel.INSTANCE_ID, instance.instanceId())
                .put(PushChannel.RETIRES_AT, retiresAt.toString())
                .put(PushChannel.REASON, PushChannel.MAX_INSTANCE_LIFETIME));
    }

    private static ObjectNode notice(String action, GameServer server) {
        return JSON.createObjectNode().put("action", action)
                .put("gameServerGroupName", server.gameServerGroupName())
                .put("gameServerId", server.gameServerId());
    }

    private Delivery post(String connectionId, ObjectNode notice) {
        try {
            client.postToConnection(r -> r.connectionId(connectionId).data(SdkBytes.fromUtf8String(notice.toString())));
            return Delivery.DELIVERED;
        } catch (GoneException e) {
            return Delivery.GONE;
        }
    }

    private static String text(Instant t) {
        return t == null ? null : t.toString();
    }
}
