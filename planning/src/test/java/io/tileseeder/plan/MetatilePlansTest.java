package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobArea;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A bounded set of plans, owned by its user: the same spec gets the same plan until it is one too many. */
class MetatilePlansTest {

    private static JobSpec triangle(int maxZoom) {
        return new JobSpec("world", TileMatrixSet.WORLD_CRS84_QUAD, 0, maxZoom, Bounds.WORLD_CRS84, TileFormat.PNG,
                Mode.SEED, MetatileSize.DEFAULT, null, 0, Map.of(), new JobArea(JobArea.Kind.COVERAGE, null,
                "{\"type\":\"Polygon\",\"coordinates\":[[[-3,-3],[33,-3],[7,29],[-3,-3]]]}"));
    }

    @Test
    void aPlanOverAnAreaIsKeptForItsSpecUntilItIsTheEldestPastTheBound() {
        MetatilePlans plans = new MetatilePlans(2);
        MetatilePlan first = plans.of(triangle(4));

        assertThat(plans.of(triangle(4))).isSameAs(first);
        plans.of(triangle(5));
        assertThat(plans.of(triangle(4))).as("used last, so kept").isSameAs(first);
        plans.of(triangle(6));
        assertThat(plans.of(triangle(5))).as("the eldest, dropped").isNotNull();
        assertThat(plans.of(triangle(4))).as("dropped when 5 came back").isNotSameAs(first);
    }

    @Test
    void twoOwnersShareNothing() {
        assertThat(new MetatilePlans(4).of(triangle(4))).isNotSameAs(new MetatilePlans(4).of(triangle(4)));
    }

    @Test
    void plansOverABboxAreMadeAnewAndCountTheSame() {
        MetatilePlans plans = new MetatilePlans(1);
        JobSpec bbox = new JobSpec("world", TileMatrixSet.WEB_MERCATOR_QUAD, 0, 3, Bounds.WORLD_CRS84, TileFormat.PNG,
                Mode.SEED, MetatileSize.DEFAULT, null, 0, Map.of());

        assertThat(plans.of(bbox).tileCount()).isEqualTo(1 + 4 + 16 + 64).isEqualTo(MetatilePlan.of(bbox).tileCount());
        assertThat(plans.tileCount(bbox, 84)).isEmpty();
        assertThat(plans.tileCount(bbox, 85)).hasValue(85);
    }

    @Test
    void theBoundIsAtLeastOne() {
        assertThatThrownBy(() -> new MetatilePlans(0)).hasMessageContaining("at least 1");
    }
}
