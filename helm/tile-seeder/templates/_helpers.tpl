{{/* The chart's name, or nameOverride. */}}
{{- define "tile-seeder.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's resource name prefix: fullnameOverride, or release-chart (just the release when it holds the chart's name). */}}
{{- define "tile-seeder.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "tile-seeder.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "tile-seeder.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "tile-seeder.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tile-seeder.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of one component: include with (dict "ctx" $ "component" "worker"). */}}
{{- define "tile-seeder.componentLabels" -}}
{{ include "tile-seeder.labels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "tile-seeder.componentSelector" -}}
{{ include "tile-seeder.selectorLabels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "tile-seeder.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tile-seeder.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* A component's image reference: include with (dict "ctx" $ "image" .Values.worker.image). */}}
{{- define "tile-seeder.image" -}}
{{- printf "%s:%s" .image.repository (default .ctx.Chart.AppVersion .image.tag) }}
{{- end }}

{{/* The Secret the chart makes for what no existing Secret provides. */}}
{{- define "tile-seeder.secretName" -}}
{{- include "tile-seeder.fullname" . }}
{{- end }}

{{/* A checksum of what that Secret is made from, so the pods restart when it changes. Not of the rendered Secret:
the write token it generates when none is given is new in every render until the Secret exists, so every pod
template would change at the first upgrade after the install; from then on the token is kept. */}}
{{- define "tile-seeder.secretChecksum" -}}
{{- $inputs := dict "tokens" .Values.auth.tokens "tokensSecret" .Values.auth.existingSecret
      "redisUrl" .Values.redis.url "redisSecret" .Values.redis.existingSecret
      "s3AccessKey" .Values.s3.accessKey "s3SecretKey" .Values.s3.secretKey "s3Secret" .Values.s3.existingSecret
      "azureSecret" .Values.azure.existingSecret "gcsSecret" .Values.gcs.existingSecret -}}
{{- toJson $inputs | sha256sum -}}
{{- end }}

{{- define "tile-seeder.layersConfigMap" -}}
{{- default (printf "%s-layers" (include "tile-seeder.fullname" .)) .Values.layers.existingConfigMap }}
{{- end }}

{{/* PromQL label matcher scoping the alerts and the KEDA query to this release's namespace. */}}
{{- define "tile-seeder.promSelector" -}}
namespace="{{ .Release.Namespace }}"
{{- end }}

{{/* Environment shared by coordinators and workers: services, store, layers. */}}
{{- define "tile-seeder.env" -}}
- name: SEEDER_MODE
  value: distributed
- name: SEEDER_KAFKA_BOOTSTRAP
  value: {{ required "kafka.bootstrap is required" .Values.kafka.bootstrap | quote }}
- name: SEEDER_REDIS_MODE
  value: {{ .Values.redis.mode | quote }}
- name: SEEDER_REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ default (include "tile-seeder.secretName" .) .Values.redis.existingSecret }}
      key: {{ ternary .Values.redis.existingSecretKey "redis-url" (ne .Values.redis.existingSecret "") }}
{{- if eq .Values.redis.mode "sentinel" }}
- name: SEEDER_REDIS_MASTER_NAME
  value: {{ required "redis.masterName is required in the sentinel mode" .Values.redis.masterName | quote }}
{{- end }}
- name: SEEDER_REDIS_SYNC_REPLICAS
  value: {{ .Values.redis.syncReplicas | quote }}
- name: SEEDER_STORE_PATH
  value: {{ required "store.path is required" .Values.store.path | quote }}
{{- with .Values.store.publicUrl }}
- name: SEEDER_STORE_PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
- name: SEEDER_STORE_LAYOUT
  value: {{ .Values.store.layout | quote }}
{{- with .Values.s3.endpoint }}
- name: SEEDER_S3_ENDPOINT
  value: {{ . | quote }}
{{- end }}
- name: SEEDER_S3_REGION
  value: {{ .Values.s3.region | quote }}
{{- if .Values.s3.existingSecret }}
- name: SEEDER_S3_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .Values.s3.existingSecret }}
      key: {{ .Values.s3.existingSecretAccessKeyKey }}
- name: SEEDER_S3_SECRET_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .Values.s3.existingSecret }}
      key: {{ .Values.s3.existingSecretSecretKeyKey }}
{{- else if .Values.s3.accessKey }}
- name: SEEDER_S3_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "tile-seeder.secretName" . }}
      key: s3-access-key
- name: SEEDER_S3_SECRET_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "tile-seeder.secretName" . }}
      key: s3-secret-key
{{- end }}
{{- with .Values.azure.existingSecret }}
- name: SEEDER_AZURE_CONNECTION_STRING
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.azure.existingSecretKey }}
{{- end }}
{{- with .Values.azure.endpoint }}
- name: SEEDER_AZURE_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- if .Values.gcs.existingSecret }}
- name: SEEDER_GCS_CREDENTIALS_FILE
  value: /etc/tile-seeder/gcs/{{ .Values.gcs.existingSecretKey }}
{{- end }}
{{- with .Values.gcs.project }}
- name: SEEDER_GCS_PROJECT
  value: {{ . | quote }}
{{- end }}
{{- with .Values.gcs.endpoint }}
- name: SEEDER_GCS_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- if or .Values.layers.inline .Values.layers.existingConfigMap }}
- name: SEEDER_LAYERS_FILE
  value: /etc/tile-seeder/layers/{{ .Values.layers.key }}
{{- end }}
{{- range $name, $value := .Values.extraEnv }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}

{{/* Volumes shared by both components: a writable /tmp and the layers ConfigMap. */}}
{{- define "tile-seeder.volumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- if or .Values.layers.inline .Values.layers.existingConfigMap }}
- name: layers
  configMap:
    name: {{ include "tile-seeder.layersConfigMap" . }}
{{- end }}
{{- with .Values.gcs.existingSecret }}
- name: gcs
  secret:
    secretName: {{ . }}
{{- end }}
{{- end }}

{{- define "tile-seeder.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if or .Values.layers.inline .Values.layers.existingConfigMap }}
- name: layers
  mountPath: /etc/tile-seeder/layers
  readOnly: true
{{- end }}
{{- if .Values.gcs.existingSecret }}
- name: gcs
  mountPath: /etc/tile-seeder/gcs
  readOnly: true
{{- end }}
{{- end }}

{{/* Liveness and readiness on the management port. */}}
{{- define "tile-seeder.probes" -}}
startupProbe:
  httpGet:
    path: /q/health/started
    port: management
  periodSeconds: 5
  failureThreshold: {{ .Values.probes.startupFailureThreshold }}
livenessProbe:
  httpGet:
    path: /q/health/live
    port: management
  periodSeconds: {{ .Values.probes.periodSeconds }}
  timeoutSeconds: {{ .Values.probes.timeoutSeconds }}
  failureThreshold: {{ .Values.probes.livenessFailureThreshold }}
readinessProbe:
  httpGet:
    path: /q/health/ready
    port: management
  periodSeconds: {{ .Values.probes.periodSeconds }}
  timeoutSeconds: {{ .Values.probes.timeoutSeconds }}
  failureThreshold: {{ .Values.probes.readinessFailureThreshold }}
{{- end }}

{{- define "tile-seeder.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 185
runAsGroup: 185
fsGroup: 185
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "tile-seeder.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Scheduling of one component's pods: include with its values (.Values.worker or .Values.coordinator). */}}
{{- define "tile-seeder.placement" -}}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
