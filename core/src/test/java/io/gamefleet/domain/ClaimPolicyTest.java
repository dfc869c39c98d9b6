package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ClaimPolicyTest {

    private static List<Integer> range(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    @Property
    void onlyTheHeadIsShuffledAndNothingIsLostOrDuplicated(
            @ForAll @Size(max = 40) List<Integer> bestFirst,
            @ForAll @IntRange(min = 1, max = 50) int spread,
            @ForAll long seed) {
        List<Integer> order = new ClaimPolicy(spread, new SplittableRandom(seed)).tryOrder(bestFirst);

        int head = Math.min(spread, bestFirst.size());
        assertThat(order).hasSameSizeAs(bestFirst);
        assertThat(order.subList(head, order.size())).containsExactlyElementsOf(bestFirst.subList(head, bestFirst.size()));
        assertThat(order.subList(0, head)).containsExactlyInAnyOrderElementsOf(bestFirst.subList(0, head));
    }

    @Property
    void theSameSeedGivesTheSameOrder(@ForAll @IntRange(min = 1, max = 30) int spread, @ForAll long seed) {
        List<Integer> items = range(30);
        assertThat(new ClaimPolicy(spread, new SplittableRandom(seed)).tryOrder(items))
                .isEqualTo(new ClaimPolicy(spread, new SplittableRandom(seed)).tryOrder(items));
    }

    @Test
    void theInputIsNotModified() {
        List<Integer> items = new ArrayList<>(range(10));
        new ClaimPolicy(10, new SplittableRandom(7)).tryOrder(items);
        assertThat(items).isEqualTo(range(10));
    }

    @Test
    void spreadOneKeepsTheBestFirstOrder() {
        assertThat(new ClaimPolicy(1, new SplittableRandom(1)).tryOrder(range(20))).isEqualTo(range(20));
    }

    @Test
    void theHeadReallyIsShuffled() {
        List<Integer> items = range(10);
        Set<Integer> firsts = new HashSet<>();
        Set<List<Integer>> heads = new HashSet<>();
        for (long seed = 0; seed < 300; seed++) {
            List<Integer> order = new ClaimPolicy(4, new SplittableRandom(seed)).tryOrder(items);
            firsts.add(order.get(0));
            heads.add(order.subList(0, 4));
        }
        // Every head item gets tried first sometimes; no item from beyond the head ever does.
        assertThat(firsts).containsExactlyInAnyOrder(0, 1, 2, 3);
        // 4! = 24 permutations of the head; 300 seeds reach all of them.
        assertThat(heads).hasSize(24);
    }

    @Test
    void fisherYatesDrawsBoundsFromTheHeadSizeDown() {
        List<Integer> bounds = new ArrayList<>();
        RandomGenerator recording = new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new AssertionError("only nextInt(bound) is expected");
            }

            @Override
            public int nextInt(int bound) {
                bounds.add(bound);
                return 0;
            }
        };
        new ClaimPolicy(5, recording).tryOrder(range(100));
        assertThat(bounds).containsExactly(5, 4, 3, 2);

        bounds.clear();
        new ClaimPolicy(5, recording).tryOrder(range(3));
        assertThat(bounds).containsExactly(3, 2);
    }

    @Test
    void emptyAndSingletonLists() {
        ClaimPolicy policy = new ClaimPolicy(3, new SplittableRandom(1));
        assertThat(policy.tryOrder(List.of())).isEmpty();
        assertThat(policy.tryOrder(List.of("only"))).containsExactly("only");
    }

    @Test
    void spreadMustBePositive() {
        assertThatThrownBy(() -> new ClaimPolicy(0, new SplittableRandom(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
