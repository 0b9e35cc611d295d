package io.tileseeder.server.api;

import io.tileseeder.coordinator.job.JobService;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobState;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.Timeouts;
import io.tileseeder.job.UnknownJobException;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.server.access.Roles;
import io.tileseeder.server.dryrun.DryRun;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Provider;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.ServerErrorException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * Seed jobs: submit, list, inspect, cancel, and wait for completion (the gate for automation). Reading needs the
 * {@code read} role; submitting and cancelling {@code write}.
 */
@Path("/api/v1/jobs")
@SecurityScheme(securitySchemeName = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "A token of the coordinator's tokens file (SEEDER_AUTH_TOKENS_FILE): role read, or write to "
                + "submit and cancel. The embedded mode without a tokens file needs none.")
@RolesAllowed(Roles.READ)
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    private static final int MAX_IDEMPOTENCY_KEY = 255;
    private static final int MAX_LIST = 1000;

    private final Provider<JobService> jobs;
    private final Provider<JobWaits> waits;
    private final Provider<DryRun> dryRuns;
    private final SeederConfig config;

    public JobsResource(Provider<JobService> jobs, Provider<JobWaits> waits, Provider<DryRun> dryRuns,
                        SeederConfig config) {
        this.jobs = jobs;
        this.waits = waits;
        this.dryRuns = dryRuns;
        this.config = config;
    }

    @POST
    @RolesAllowed(Roles.WRITE)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Submit a job", description = "Validates the job and starts it, or queues it (state QUEUED, "
            + "with its queuePosition) while seeder.limits.max-running-jobs jobs run: 202 with the job, 429 when "
            + "seeder.limits.max-queued-jobs wait already, or 400 problem+json naming every invalid field. Retrying "
            + "with the same Idempotency-Key and the same job returns that job; the key with another job is refused "
            + "with 422. An empty key counts as none. With dryRun=true nothing is submitted: 200 with the job's tiles "
            + "and metatiles per zoom and an estimate of its bytes and time from rendering a sample of its metatiles "
            + "(429 while another dry run renders, 502 when the layer's source fails).")
    public Response submit(JobRequest request,
                           @Parameter(description = "Makes retries of this submission return the same job")
                           @HeaderParam("Idempotency-Key") String idempotencyKey,
                           @Parameter(description = "true: estimate the job, do not submit it")
                           @QueryParam("dryRun") @DefaultValue("false") String dryRun,
                           @Context UriInfo uri) throws InterruptedException {
        if (idempotencyKey != null && idempotencyKey.length() > MAX_IDEMPOTENCY_KEY) {
            throw new InvalidJobException(List.of(new FieldError("Idempotency-Key",
                    "must be at most " + MAX_IDEMPOTENCY_KEY + " characters")));
        }
        if (!dryRun.equals("true") && !dryRun.equals("false")) {
            throw new InvalidJobException(List.of(new FieldError("dryRun", "must be true or false, got '" + dryRun
                    + "'")));
        }
        if (dryRun.equals("true")) {
            return Response.ok(estimate(request)).build();
        }
        JobStatus job = jobs().submit(request, idempotencyKey);
        // A path, not a URL: the request's Host header is the client's to choose, so no URL is built from it.
        return Response.accepted(view(job))
                .header(HttpHeaders.LOCATION, uri.getBaseUri().getRawPath() + "api/v1/jobs/" + job.id())
                .build();
    }

    private DryRun.Estimate estimate(JobRequest request) throws InterruptedException {
        JobSpec spec = jobs().check(request);
        try {
            return dryRuns.get().estimate(spec);
        } catch (IOException e) {
            throw new ServerErrorException(Problem.response(Response.Status.BAD_GATEWAY,
                    "the dry run could not render layer '" + spec.layer() + "': " + e.getMessage()));
        }
    }

    @GET
    @Operation(summary = "List jobs, newest first")
    public List<JobView> list(@QueryParam("limit") @DefaultValue("100") String limitText) {
        int limit;
        try {
            limit = Integer.parseInt(limitText.trim());
        } catch (NumberFormatException e) {
            limit = 0;
        }
        if (limit < 1 || limit > MAX_LIST) {
            throw new InvalidJobException(List.of(new FieldError("limit",
                    "must be a whole number 1.." + MAX_LIST + ", got '" + limitText + "'")));
        }
        Instant now = Instant.now();
        List<JobStatus> listed = jobs().list(limit);
        Map<String, Integer> positions = listed.stream().anyMatch(JobsResource::queued) ? jobs().queuePositions()
                : Map.of();
        return listed.stream().map(job -> JobView.of(job, now, waits.get().of(job), positions)).toList();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "A job's state and progress")
    public JobView get(@PathParam("id") String id) {
        return view(jobs().get(id).orElseThrow(() -> new UnknownJobException(id)));
    }

    @DELETE
    @RolesAllowed(Roles.WRITE)
    @Path("{id}")
    @Operation(summary = "Cancel a job", description = "Planning stops and workers drop its remaining tasks; "
            + "409 if the job has already finished.")
    public JobView cancel(@PathParam("id") String id) {
        JobStatus before = jobs().get(id).orElseThrow(() -> new UnknownJobException(id));
        if (before.state().isFinal()) {
            throw new ClientErrorException(Problem.response(Response.Status.CONFLICT,
                    "job " + id + " has already finished: " + before.state()));
        }
        return view(jobs().cancel(id).orElseThrow(() -> new UnknownJobException(id)));
    }

    @GET
    @Path("{id}/wait")
    @Operation(summary = "Wait for a job to finish", description = "Long-poll: answers as soon as the job is "
            + "SUCCEEDED, FAILED, CANCELLED or LOST, or with its current state when the timeout runs out.")
    public CompletionStage<JobView> await(@PathParam("id") String id,
                                          @Parameter(description = "e.g. 30s, 5m, PT1M; at most seeder.limits.max-wait")
                                          @QueryParam("timeout") @DefaultValue("30s") String timeout) {
        Duration wait;
        try {
            wait = Timeouts.parse(timeout);
        } catch (IllegalArgumentException e) {
            throw new InvalidJobException(List.of(new FieldError("timeout", e.getMessage())));
        }
        if (wait.compareTo(config.limits().maxWait()) > 0) {
            throw new InvalidJobException(List.of(new FieldError("timeout",
                    Timeouts.format(wait) + " is longer than the limit of "
                            + Timeouts.format(config.limits().maxWait()))));
        }
        return jobs().awaitFinal(id, wait).orElseThrow(() -> new UnknownJobException(id))
                .thenApply(this::view);
    }

    /** The job as the API shows it now, with its place in the queue if it is queued. */
    private JobView view(JobStatus job) {
        return JobView.of(job, Instant.now(), waits.get().of(job),
                queued(job) ? jobs().queuePositions() : Map.of());
    }

    private static boolean queued(JobStatus job) {
        return job.state() == JobState.QUEUED;
    }

    private JobService jobs() {
        return jobs.get();
    }
}
