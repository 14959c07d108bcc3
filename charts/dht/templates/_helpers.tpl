{{/* Chart name, truncated to the DNS label limit. */}}
{{- define "dht.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-qualified name of the operator's objects. */}}
{{- define "dht.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- printf "%s-operator" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s-operator" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "dht.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels of the operator pods; never change them (Deployment selector). */}}
{{- define "dht.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dht.name" . }}-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/*
The operator pods' selector labels as key=value,... (DHT_OPERATOR_POD_SELECTOR): the nodes'
NetworkPolicies admit these pods to the admin port.
*/}}
{{- define "dht.operatorPodSelector" -}}
{{- $terms := list -}}
{{- range $key, $value := include "dht.selectorLabels" . | fromYaml -}}
{{- $terms = append $terms (printf "%s=%s" $key $value) -}}
{{- end -}}
{{- join "," $terms -}}
{{- end -}}

{{/* Labels of everything the chart installs. */}}
{{- define "dht.commonLabels" -}}
helm.sh/chart: {{ include "dht.chart" . }}
app.kubernetes.io/part-of: dht
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Labels of the operator's objects. */}}
{{- define "dht.labels" -}}
{{ include "dht.commonLabels" . }}
{{ include "dht.selectorLabels" . }}
app.kubernetes.io/component: operator
{{- end -}}

{{- define "dht.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "dht.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "dht.operatorImage" -}}
{{- printf "%s:%s" .Values.operator.image.repository (.Values.operator.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{- define "dht.nodeImage" -}}
{{- printf "%s:%s" .Values.node.image.repository (.Values.node.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/*
What the operator may do in a namespace it watches: exactly the kinds it reconciles, owns or reads.
Shared by the ClusterRole (all namespaces) and the per-namespace Roles.
*/}}
{{- define "dht.rules" -}}
# Exactly the verbs the operator uses (operator/README.md "RBAC"); pinned by e2e/lib/chart_asserts.py.
# No delete where the garbage collector deletes (owned objects), no update where JOSDK applies
# server-side (patch), no watch where there is no informer (pods).
- apiGroups: ["dht.dev"]
  resources: ["dhtclusters"]
  verbs: ["get", "list", "watch", "patch"]
- apiGroups: ["dht.dev"]
  resources: ["dhtloadtests"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["dht.dev"]
  resources: ["dhtclusters/status", "dhtloadtests/status"]
  verbs: ["get", "patch"]
- apiGroups: ["apps"]
  resources: ["statefulsets"]
  verbs: ["get", "list", "watch", "create", "patch"]
- apiGroups: [""]
  resources: ["services"]
  verbs: ["get", "list", "watch", "create", "patch"]
# JOSDK creates and updates ConfigMaps without server-side apply (its default for ConfigMaps and
# Secrets); the load test reports are applied server-side
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get", "list", "watch", "create", "update", "patch"]
# update: the TLS Secrets (a renewed certificate, a CA rotation's steps), at the version read
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "list", "watch", "create", "update"]
- apiGroups: ["policy"]
  resources: ["poddisruptionbudgets"]
  verbs: ["get", "list", "watch", "create", "patch"]
# applied like the above; delete: spec.networkPolicy.enabled=false removes the cluster's policy
- apiGroups: ["networking.k8s.io"]
  resources: ["networkpolicies"]
  verbs: ["get", "list", "watch", "create", "patch", "delete"]
- apiGroups: ["batch"]
  resources: ["jobs"]
  verbs: ["get", "list", "watch", "create", "patch"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "patch"]
# the roller restarts pods through evictions, so that the PodDisruptionBudget arbitrates; a node's
# replacement (dht.dev/replace) takes its pod down the same way: no pod delete
- apiGroups: [""]
  resources: ["pods/eviction"]
  verbs: ["create"]
- apiGroups: [""]
  resources: ["pods/log"]
  verbs: ["get"]
# the claims of members a scale-down removed (detachedClaims), and of a replaced node
- apiGroups: [""]
  resources: ["persistentvolumeclaims"]
  verbs: ["get", "list", "patch", "delete"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "get", "patch"]
{{- end -}}
