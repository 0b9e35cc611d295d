package io.tileseeder.adapters.pmtiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.PrimitiveIterator;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LongSorterTest {

    @TempDir
    Path dir;

    @Test
    void numbersComeBackSortedFromMemoryOrFromRunsOnDiskAndTheRunsAreDeleted() throws Exception {
        Random random = new Random(30);
        for (int count : new int[] {0, 1, 999, 1000, 1001, 25_678}) {
            long[] numbers = random.longs(count, 0, 5000).toArray();
            try (LongSorter sorter = new LongSorter(dir, 1000)) {
                for (long number : numbers) {
                    sorter.add(number);
                }
                assertThat(sorter.size()).isEqualTo(count);
                PrimitiveIterator.OfLong sorted = sorter.sorted();
                long[] read = new long[count];
                for (int i = 0; i < count; i++) {
                    read[i] = sorted.nextLong();
                }
                assertThat(sorted.hasNext()).isFalse();
                Arrays.sort(numbers);
                assertThat(read).as("%d numbers", count).containsExactly(numbers);
            }
            try (Stream<Path> left = Files.list(dir)) {
                assertThat(left).as("runs deleted").isEmpty();
            }
        }
    }
}
