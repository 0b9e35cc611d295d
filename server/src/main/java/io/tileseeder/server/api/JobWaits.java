package io.tileseeder.server.api;

import io.tileseeder.job.JobStatus;
import io.tileseeder.outage.Outages;
import java.util.List;

/** What a job waits for now, for its view: the coordinator's outages, and its upstream's hold if it has one. */
@FunctionalInterface
public interface JobWaits {

    List<Outages.Outage> of(JobStatus job);
}
