package io.gamefleet.local.edge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The access log never shows an instance's endpoint secret, which would hand a reader of the log its metadata. */
class InstanceMetadataServiceTest {
    @Test
    void theAccessLogWritesTheEndpointSecretAsAStar() {
        assertThat(InstanceMetadataService.logged("/_local/imds/i-0123456789abcdef0/s3cr3t/latest/api/token"))
                .isEqualTo("/_local/imds/i-0123456789abcdef0/*/latest/api/token");
        assertThat(InstanceMetadataService.logged("/_local/imds/i-0123456789abcdef0/s3cr3t"))
                .isEqualTo("/_local/imds/i-0123456789abcdef0/*");
        assertThat(InstanceMetadataService.logged("/_local/imds/i-0123456789abcdef0")).isEqualTo("/_local/imds/i-0123456789abcdef0");
        assertThat(InstanceMetadataService.logged("/game-server-groups/arena")).isEqualTo("/game-server-groups/arena");
    }
}
