package io.gamefleet.local.bench.coldstart;

import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbAttribute;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbBean;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbPartitionKey;

/** The textbook handler's item, a bean read by reflection. */
@DynamoDbBean
public class TextbookServer {
    private String gameServerId;
    private String connectionInfo;
    private Long lastHealthCheckTime;

    @DynamoDbPartitionKey
    @DynamoDbAttribute("GameServerId")
    public String getGameServerId() {
        return gameServerId;
    }

    public void setGameServerId(String gameServerId) {
        this.gameServerId = gameServerId;
    }

    @DynamoDbAttribute("ConnectionInfo")
    public String getConnectionInfo() {
        return connectionInfo;
    }

    public void setConnectionInfo(String connectionInfo) {
        this.connectionInfo = connectionInfo;
    }

    @DynamoDbAttribute("LastHealthCheckTime")
    public Long getLastHealthCheckTime() {
        return lastHealthCheckTime;
    }

    public void setLastHealthCheckTime(Long lastHealthCheckTime) {
        this.lastHealthCheckTime = lastHealthCheckTime;
    }
}
