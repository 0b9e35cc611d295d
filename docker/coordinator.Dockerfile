# The coordinator: REST API and console on 8080, health and metrics on the management port 9080.
# Build the app first (./mvnw -B package -pl app -am -DskipTests), then from the project's root:
#   docker build -f docker/coordinator.Dockerfile -t tile-seeder/coordinator .
FROM eclipse-temurin:21-jre

ENV LANG=C.UTF-8 \
    SEEDER_JAVA_OPTS="-XX:MaxRAMPercentage=75" \
    QUARKUS_HTTP_HOST_ENABLED=true \
    QUARKUS_HTTP_PORT=8080 \
    QUARKUS_HTTP_HOST=0.0.0.0 \
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
EXPOSE 8080 9080
# SEEDER_JAVA_OPTS is split into words on purpose, like JAVA_OPTS.
ENTRYPOINT ["sh", "-c", "exec java $SEEDER_JAVA_OPTS -Djava.awt.headless=true -jar /deployments/quarkus-run.jar \"$@\"", "seeder"]
CMD ["serve", "--port", "8080"]
