# Switchboard on the official Open Liberty image (Java 17, OpenJ9, Red Hat UBI), same Liberty version as the build.
# Build the WAR and the JDBC drivers first, then the image (docs/cluster.md, "Container image"):
#   mvn -B -DskipTests package liberty:create liberty:deploy    # target/switchboard.war, target/liberty/.../lib/jdbc
#   docker build -t switchboard:latest .
# Every setting comes from the environment at run time (docs/configuration.md): nothing of a deployment is baked in.
FROM icr.io/appcafe/open-liberty:26.0.0.3-kernel-slim-java17-openj9-ubi

# The production server.xml first, so that features.sh installs exactly the features it lists, at image build
COPY --chown=1001:0 src/main/liberty/config/server.xml /config/server.xml
RUN features.sh

# Hazelcast's access to JDK internals in cluster mode (docs/cluster.md, "What a member needs")
COPY --chown=1001:0 src/main/docker/jvm.options /config/jvm.options
# H2 (single instance) and mysql-connector-j (MySQL, MariaDB), where server.xml's jdbcLib looks for them
COPY --chown=1001:0 target/liberty/wlp/usr/servers/switchboard/lib/jdbc/ /config/lib/jdbc/
COPY --chown=1001:0 target/switchboard.war /config/apps/switchboard.war
# The preStop hook: drains this member before Kubernetes stops it
COPY --chown=1001:0 --chmod=0755 src/main/docker/drain.sh /opt/switchboard/drain.sh

# The data dir (H2 of a single instance, generated keys, knowledge indexes): mount a volume here
ENV SWITCHBOARD_DATA_DIR=/opt/ol/wlp/output/defaultServer/data

# HTTP (server.xml's http.port) and Hazelcast's member port (switchboard.cluster.port), the latter for members only
EXPOSE 8080 5701

# Shared class cache and the image's own configuration steps
RUN configure.sh
