# A worker: renders and stores metatiles; health and metrics on its one port, 9080 (`seeder worker --port`,
# the management interface; the API server stays off). The same application as the coordinator.
# Build the app first (./mvnw -B package -pl app -am -DskipTests), then from the project's root:
#   docker build -f docker/worker.Dockerfile -t tile-seeder/worker .
FROM eclipse-temurin:21-jre

ENV LANG=C.UTF-8 \
    SEEDER_JAVA_OPTS="-XX:MaxRAMPercentage=75" \
    QUARKUS_HTTP_HOST_ENABLED=false \
    QUARKUS_MANAGEMENT_HOST_ENABLED=true \
    QUARKUS_MANAGEMENT_PORT=9080 \
    SEEDER_MODE=distributed

# Quarkus's fast-jar layout, in the order it changes least to most (dependencies first).
COPY --chown=185:185 app/target/quarkus-app/lib/ /deployments/lib/
COPY --chown=185:185 app/target/quarkus-app/*.jar /deployments/
COPY --chown=185:185 app/target/quarkus-app/app/ /deployments/app/
COPY --chown=185:185 app/target/quarkus-app/quarkus/ /deployments/quarkus/

WORKDIR /deployments
USER 185
EXPOSE 9080
# SEEDER_JAVA_OPTS is split into words on purpose, like JAVA_OPTS.
ENTRYPOINT ["sh", "-c", "exec java $SEEDER_JAVA_OPTS -Djava.awt.headless=true -jar /deployments/quarkus-run.jar \"$@\"", "seeder"]
CMD ["worker", "--port", "9080"]
