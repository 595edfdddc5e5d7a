{{/*
Chart name, truncated to 63 characters (DNS label limit).
*/}}
{{- define "portal.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified app name: "<release>-<chart>", or the release name alone when it
already contains the chart name.
*/}}
{{- define "portal.fullname" -}}
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

{{/*
Chart name and version, for the helm.sh/chart label.
*/}}
{{- define "portal.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Selector labels: stable for the life of the release.
*/}}
{{- define "portal.selectorLabels" -}}
app.kubernetes.io/name: {{ include "portal.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Common labels.
*/}}
{{- define "portal.labels" -}}
helm.sh/chart: {{ include "portal.chart" . }}
{{ include "portal.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: macrolock
{{- end }}

{{/*
ServiceAccount name.
*/}}
{{- define "portal.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "portal.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
"true" when an external PostgreSQL is configured (database.existingSecret set),
"" in embedded PGlite mode. Use it as: {{ if include "portal.externalDatabase" . }}
*/}}
{{- define "portal.externalDatabase" -}}
{{- if .Values.database.existingSecret }}true{{ end }}
{{- end }}

{{/*
Name of the PersistentVolumeClaim used in embedded mode.
*/}}
{{- define "portal.claimName" -}}
{{- default (printf "%s-data" (include "portal.fullname" .)) .Values.persistence.existingClaim }}
{{- end }}

{{/*
Shortest termination budget the server needs, in whole seconds:
preStop sleep + ceil((SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS) / 1000).
*/}}
{{- define "portal.shutdownBudgetSeconds" -}}
{{- $ms := add (int .Values.shutdown.delayMs) (int .Values.shutdown.timeoutMs) }}
{{- add (int .Values.shutdown.preStopSleepSeconds) (div (add $ms 999) 1000) }}
{{- end }}

{{/*
Checks the schema cannot fully express (and repeats the ones it does, for
installs that skip schema validation). Renders nothing; fails the release on error.
*/}}
{{- define "portal.validate" -}}
{{- if not (include "portal.externalDatabase" .) }}
{{- if gt (int .Values.replicaCount) 1 }}
{{- fail "replicaCount > 1 needs an external database: set database.existingSecret (the embedded PGlite database allows exactly one replica)" }}
{{- end }}
{{- if .Values.autoscaling.enabled }}
{{- fail "autoscaling.enabled needs an external database: set database.existingSecret (the embedded PGlite database allows exactly one replica)" }}
{{- end }}
{{- end }}
{{- $budget := include "portal.shutdownBudgetSeconds" . | int }}
{{- if le (int .Values.shutdown.terminationGracePeriodSeconds) $budget }}
{{- fail (printf "shutdown.terminationGracePeriodSeconds (%d) must be greater than preStopSleepSeconds + (delayMs + timeoutMs) / 1000 = %d" (int .Values.shutdown.terminationGracePeriodSeconds) $budget) }}
{{- end }}
{{- end }}
