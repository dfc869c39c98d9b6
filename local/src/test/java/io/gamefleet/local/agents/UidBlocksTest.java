package io.gamefleet.local.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Uid blocks shared by the profiles of one machine, through their lock files. */
class UidBlocksTest {
    @TempDir
    Path locks;

    @Test
    void twoProfilesNeverHandOutTheSameUidsAndOneClosedGivesItsBack() {
        try (UidBlocks first = new UidBlocks(locks, 61000, 61011, 4); UidBlocks second = new UidBlocks(locks, 61000, 61011, 4)) {
            assertThat(first.acquire()).isEqualTo(61000);
            assertThat(second.acquire()).as("the first's block is locked").isEqualTo(61004);
            assertThat(first.acquire()).isEqualTo(61008);
            assertThatThrownBy(second::acquire).hasMessageContaining("no uids left")
                    .hasMessageContaining("those of other local profiles on this machine included");

            first.close();
            assertThat(second.acquire()).as("the first's, in turn from its own last").isEqualTo(61008);
            assertThat(second.acquire()).isEqualTo(61000);
        }
    }

    @Test
    void blocksAreHandedOutInTurnSoAnEndedInstancesComesRoundLast() {
        try (UidBlocks blocks = new UidBlocks(locks, 61000, 61011, 4)) {
            int a = blocks.acquire();
            blocks.release(a);
            assertThat(blocks.acquire()).as("not the one just released").isEqualTo(61004);
            assertThat(blocks.acquire()).isEqualTo(61008);
            assertThat(blocks.acquire()).as("round again: still this profile's").isEqualTo(a);
        }
    }

    @Test
    void blocksOfAnotherSizeOverlappingAHeldUidAreSkipped() {
        try (UidBlocks fours = new UidBlocks(locks, 61000, 61011, 4); UidBlocks threes = new UidBlocks(locks, 61000, 61011, 3)) {
            fours.acquire(); // 61000-61003
            assertThat(threes.acquire()).as("61003 is held: 61000-61002 is free but 61003-61005 is not").isEqualTo(61006);
            assertThat(threes.acquire()).isEqualTo(61009);
        }
    }
}
