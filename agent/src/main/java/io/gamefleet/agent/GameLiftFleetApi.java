package io.gamefleet.agent;

import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.gamelift.GameLiftClient;
import software.amazon.awssdk.services.gamelift.model.ConflictException;
import software.amazon.awssdk.services.gamelift.model.GameServer;
import software.amazon.awssdk.services.gamelift.model.GameServerClaimStatus;
import software.amazon.awssdk.services.gamelift.model.GameServerHealthCheck;
import software.amazon.awssdk.services.gamelift.model.GameServerUtilizationStatus;
import software.amazon.awssdk.services.gamelift.model.LimitExceededException;
import software.amazon.awssdk.services.gamelift.model.NotFoundException;

/** {@link FleetApi} through the official AWS SDK GameLift client, pointed at Gamefleet's endpoint. */
final class GameLiftFleetApi implements FleetApi {
    private final GameLiftClient client;
    private final String groupName;
    private final String instanceId;

    GameLiftFleetApi(GameLiftClient client, String groupName, String instanceId) {
        this.client = client;
        this.groupName = groupName;
        this.instanceId = instanceId;
    }

    /**
     * A ConflictException is "registered already" (an earlier attempt went through, its answer lost)
     * only if DescribeGameServer shows the server on this instance: another instance may have taken
     * the id first, and that server is not this agent's to report on or deregister.
     */
    @Override
    public void register(String gameServerId, String connectionInfo) {
        call(() -> {
            try {
                client.registerGameServer(r -> r.gameServerGroupName(groupName).gameServerId(gameServerId)
                        .instanceId(instanceId).connectionInfo(connectionInfo));
            } catch (ConflictException e) {
                GameServer holder;
                try {
                    holder = client.describeGameServer(r -> r.gameServerGroupName(groupName).gameServerId(gameServerId)).gameServer();
                } catch (NotFoundException gone) {
                    throw new Refused("refused as a conflict (" + message(e) + "), then not found: registered elsewhere and gone");
                }
                if (holder == null || !instanceId.equals(holder.instanceId())) {
                    throw new Refused("refused as a conflict: " + gameServerId + " is registered on instance "
                            + (holder == null ? "?" : holder.instanceId()) + ", not this instance " + instanceId
                            + " (" + message(e) + ")");
                }
            } catch (LimitExceededException e) {
                // The stage lets an instance hold fewer game servers than this agent runs: retried on
                // the API backoff (up to apiRetryMaxSeconds), never in a tight loop, until one ends.
                throw new Refused("a configuration error: this instance already has the most game servers the"
                        + " stage's maxGameServersPerInstance allows (" + message(e) + "); run fewer processes, or"
                        + " raise maxGameServersPerInstance");
            }
        });
    }

    private static String message(AwsServiceException e) {
        return e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
    }

    @Override
    public void update(String gameServerId, boolean healthy, boolean utilized) {
        call(() -> client.updateGameServer(r -> {
            r.gameServerGroupName(groupName).gameServerId(gameServerId);
            if (healthy) {
                r.healthCheck(GameServerHealthCheck.HEALTHY);
            }
            if (utilized) {
                r.utilizationStatus(GameServerUtilizationStatus.UTILIZED);
            }
        }));
    }

    @Override
    public void deregister(String gameServerId) {
        call(() -> client.deregisterGameServer(r -> r.gameServerGroupName(groupName).gameServerId(gameServerId)));
    }

    @Override
    public Optional<Claim> claimOf(String gameServerId) {
        GameServer server;
        try {
            server = client.describeGameServer(r -> r.gameServerGroupName(groupName).gameServerId(gameServerId)).gameServer();
        } catch (NotFoundException e) {
            throw new NotFound(message(e));
        } catch (SdkException e) {
            throw new Unreachable(e.getMessage(), e);
        }
        return server != null && server.claimStatus() == GameServerClaimStatus.CLAIMED
                ? Optional.of(new Claim(server.gameServerData(), server.lastClaimTime())) : Optional.empty();
    }

    private static void call(Runnable request) {
        try {
            request.run();
        } catch (NotFoundException e) {
            throw new NotFound(message(e));
        } catch (SdkException e) {
            throw new Unreachable(e.getMessage(), e);
        }
    }
}
