package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * What ECS serves the containers of one task, for the sidecar's tests: the task metadata endpoint v4
 * ({@code GET <metadata>/task}, as Fargate answers it) and the task role's credentials ({@code GET /v2/credentials/...},
 * what {@code AWS_CONTAINER_CREDENTIALS_FULL_URI} names), whose access key id is {@link #TASK_ROLE_KEY}.
 */
final class FakeEcsTask implements AutoCloseable {
    static final String METADATA_PATH = "/v4/5a0ea1e8e1e84d0c9f5d0bd4a5c2b1f3-2531612879";
    static final String CREDENTIALS_PATH = "/v2/credentials/3f6a0e2b-7c1d-4e5f-9a8b-0c1d2e3f4a5b";
    static final String TASK_ROLE_KEY = "ASIATASKROLE";
    private static final ObjectMapper JSON = new ObjectMapper();

    final String taskArn;
    final String privateIpv4;
    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server);

    FakeEcsTask(String taskArn, String privateIpv4) {
        this.taskArn = taskArn;
        this.privateIpv4 = privateIpv4;
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = Request.getPathInContext(request);
                int status = 404;
                String body = "{}";
                if (path.equals(CREDENTIALS_PATH) && request.getMethod().equals("GET")) {
                    status = 200;
                    body = JSON.createObjectNode().put("AccessKeyId", TASK_ROLE_KEY).put("SecretAccessKey", "task-role-secret")
                            .put("Token", "task-role-token").put("Expiration", "2099-01-01T00:00:00Z")
                            .put("RoleArn", "arn:aws:iam::111122223333:role/gamefleet-task").toString();
                } else if (path.equals(METADATA_PATH + "/task") && request.getMethod().equals("GET")) {
                    status = 200;
                    body = taskDocument();
                }
                response.setStatus(status);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
    }

    /** The task document's keys the sidecar reads, in Fargate's shape (two containers on the task's ENI). */
    private String taskDocument() {
        ObjectNode task = JSON.createObjectNode().put("Cluster", "arn:aws:ecs:us-east-1:111122223333:cluster/gamefleet")
                .put("TaskARN", taskArn).put("Family", "gamefleet-tasks_arena").put("Revision", "3")
                .put("DesiredStatus", "RUNNING").put("KnownStatus", "RUNNING").put("AvailabilityZone", "us-east-1b")
                .put("LaunchType", "FARGATE");
        for (String name : List.of("gamefleet-agent", "game")) {
            ObjectNode container = task.withArray("Containers").addObject().put("Name", name).put("DockerId", taskArn.substring(
                    taskArn.lastIndexOf('/') + 1) + "-" + name);
            ObjectNode network = container.putArray("Networks").addObject().put("NetworkMode", "awsvpc");
            network.putArray("IPv4Addresses").add(privateIpv4);
        }
        return task.toString();
    }

    FakeEcsTask start() throws Exception {
        server.start();
        return this;
    }

    String metadataUri() {
        return "http://127.0.0.1:" + connector.getLocalPort() + METADATA_PATH;
    }

    /**
     * The task's game server container, as ECS starts it once the agent's is up: the scripted GSDK
     * server ({@code script} its mode and file) with nothing in its environment but GSDK_CONFIG_FILE.
     */
    static Process startGameServerContainer(Path gsdkFile, Path output, String... script) throws java.io.IOException {
        List<String> command = new java.util.ArrayList<>(List.of(ChildJvm.java()));
        command.addAll(ChildJvm.args(ScriptedGsdkServer.class, script));
        ProcessBuilder container = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        container.environment().clear();
        container.environment().put("GSDK_CONFIG_FILE", gsdkFile.toString());
        return container.start();
    }

    String credentialsUri() {
        return "http://127.0.0.1:" + connector.getLocalPort() + CREDENTIALS_PATH;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
