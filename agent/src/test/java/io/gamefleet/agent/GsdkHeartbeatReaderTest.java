package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GsdkHeartbeatReaderTest {
    @Test
    void readsThePascalCaseOfCppCSharpAndGo() throws Exception {
        Heartbeat hb = GsdkHeartbeatReader.read("""
                {"CurrentGameState":"StandingBy","CurrentGameHealth":"Healthy","CurrentPlayers":[{"PlayerId":"p1"}]}""");
        assertThat(hb.state()).isEqualTo(GameState.StandingBy);
        assertThat(hb.healthy()).isTrue();
        assertThat(hb.players()).containsExactly("p1");
    }

    @Test
    void readsTheCamelCaseOfJava() throws Exception {
        Heartbeat hb = GsdkHeartbeatReader.read("""
                {"currentGameState":"Active","currentGameHealth":"Unhealthy","currentPlayers":[{"playerId":"p2"}]}""");
        assertThat(hb.state()).isEqualTo(GameState.Active);
        assertThat(hb.healthy()).isFalse();
        assertThat(hb.players()).containsExactly("p2");
    }

    @Test
    void healthLeftOutIsNull() throws Exception {
        assertThat(GsdkHeartbeatReader.read("{\"currentGameState\":\"Initializing\"}").healthy()).isNull();
    }

    @Test
    void refusesWhatIsNoHeartbeat() {
        for (String body : new String[] {"", "[]", "{", "{}", "{\"CurrentGameState\":3}", "{\"CurrentGameState\":\"Sleeping\"}",
                "{\"CurrentGameState\":\"Active\",\"CurrentGameHealth\":\"Meh\"}",
                "{\"CurrentGameState\":\"Active\",\"CurrentPlayers\":{}}",
                "{\"CurrentGameState\":\"Active\",\"CurrentPlayers\":[{}]}"}) {
            assertThatThrownBy(() -> GsdkHeartbeatReader.read(body)).as(body).isInstanceOf(GsdkHeartbeatReader.Malformed.class);
        }
    }

    @Test
    void gsdkInfoNeedsFlavorAndVersion() throws Exception {
        assertThat(GsdkHeartbeatReader.gsdkInfo("{\"Flavor\":\"Java\",\"Version\":\"2.0.0\"}")).containsExactly("Java", "2.0.0");
        assertThatThrownBy(() -> GsdkHeartbeatReader.gsdkInfo("{\"Flavor\":\"\",\"Version\":\"2.0.0\"}"))
                .isInstanceOf(GsdkHeartbeatReader.Malformed.class);
    }
}
