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

{{/*
An image reference: repository:tag, or repository:tag@digest when image.digest is set (the
container runtime then pulls and runs the digest; the tag is only there for people to read).
*/}}
{{- define "dht.image" -}}
{{- $ref := printf "%s:%s" .image.repository (.image.tag | default .appVersion) -}}
{{- with .image.digest -}}
{{- $ref = printf "%s@%s" $ref . -}}
{{- end -}}
{{- $ref -}}
{{- end -}}

{{- define "dht.operatorImage" -}}
{{- include "dht.image" (dict "image" .Values.operator.image "appVersion" .Chart.AppVersion) -}}
{{- end -}}

{{- define "dht.nodeImage" -}}
{{- include "dht.image" (dict "image" .Values.node.image "appVersion" .Chart.AppVersion) -}}
{{- end -}}

{{/*
What the operator may do in a namespace it watches: exactly the calls it makes.
Shared by the ClusterRole (all namespaces) and the per-namespace Roles.
*/}}
{{- define "dht.rules" -}}
# Exactly the calls the operator makes (operator/README.md "RBAC"): the operator's tests run it as
# this ServiceAccount and ChartRbacTest fails on a call these rules refuse, or on a rule no call
# uses that its NOT_REACHED list does not explain. The owned objects are server-side applied (a
# patch, and a create when new) and read from informers (list, watch: no get); the garbage
# collector deletes them through owner references (no delete).
# patch: the operator removes the annotations it consumed (dht.dev/allow-restart, dht.dev/replace)
- apiGroups: ["dht.dev"]
  resources: ["dhtclusters"]
  verbs: ["get", "list", "watch", "patch"]
# get: a load test's baseline; the report site's pages
- apiGroups: ["dht.dev"]
  resources: ["dhtloadtests"]
  verbs: ["get", "list", "watch"]
# get, create, delete: a load test's own user on a cluster that demands tokens (made before its
# Job, deleted when it ends)
- apiGroups: ["dht.dev"]
  resources: ["dhtusers"]
  verbs: ["get", "list", "watch", "create", "delete"]
# get: the DhtBackup a cluster created from a backup restores (spec.bootstrap.backup.name);
# list, watch: the DhtBackup controller; patch: the finalizer dht.dev/backup, which JOSDK adds to
# a DhtBackup and removes once the backup is deleted from the store (or said to stay there)
- apiGroups: ["dht.dev"]
  resources: ["dhtbackups"]
  verbs: ["get", "list", "watch", "patch"]
# The DhtScheduledBackup controller (DhtScheduledBackupReconciler): its schedules from an informer
# (list, watch) and their status (patch); the DhtBackups of the namespace from an informer (list,
# watch: its own by the label dht.dev/scheduled-backup, the others to know whether a backup of the
# cluster runs before it collects the store); create: a backup at each time of a schedule; delete:
# the backups retention lets go (their finalizer deletes them from the store)
- apiGroups: ["dht.dev"]
  resources: ["dhtscheduledbackups"]
  verbs: ["list", "watch"]
- apiGroups: ["dht.dev"]
  resources: ["dhtscheduledbackups/status"]
  verbs: ["patch"]
- apiGroups: ["dht.dev"]
  resources: ["dhtbackups"]
  verbs: ["list", "watch", "create", "delete"]
- apiGroups: ["dht.dev"]
  resources: ["dhtclusters/status", "dhtloadtests/status", "dhtusers/status", "dhtbackups/status"]
  verbs: ["patch"]
- apiGroups: ["apps"]
  resources: ["statefulsets"]
  verbs: ["list", "watch", "create", "patch"]
- apiGroups: [""]
  resources: ["services"]
  verbs: ["list", "watch", "create", "patch"]
# JOSDK creates and updates the cluster's ConfigMap without server-side apply (its default for
# ConfigMaps and Secrets); the load tests' results and reports are applied server-side; get: a
# baseline's report, the report site's pages
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get", "list", "watch", "create", "update", "patch"]
# RBAC cannot narrow list, watch or create to some Secrets, so the operator does: its only Secret
# informer lists and watches by its label (app.kubernetes.io/managed-by=dht-operator: the cluster
# secrets <cluster>-secret); every other read is a get by name: the TLS Secrets <cluster>-ca,
# -ca-cert, -node-tls (no managed-by label: they would break that informer's one Secret per
# cluster), a cluster secret just made, a load test's cluster secret and its control token
# <test>-control, a DhtUser's token and client certificate <user>-token, <user>-tls. create: those,
# for a new cluster, load test or user; update: the TLS Secrets (a renewed certificate, a CA
# rotation's steps, <cluster>-ca-cert copied from cert-manager's), the users file and a user's
# certificate, at the version read, and only those the DhtCluster or DhtUser owns (its UID).
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "list", "watch", "create", "update"]
- apiGroups: ["policy"]
  resources: ["poddisruptionbudgets"]
  verbs: ["list", "watch", "create", "patch"]
# delete: spec.networkPolicy.enabled=false removes the cluster's policy
- apiGroups: ["networking.k8s.io"]
  resources: ["networkpolicies"]
  verbs: ["list", "watch", "create", "patch", "delete"]
# get: a Job the load test's status names and the informer has not seen yet
- apiGroups: ["batch"]
  resources: ["jobs"]
  verbs: ["get", "list", "watch", "create", "patch"]
# list (by the cluster's or the Job's labels): readiness, revision, image, a generator's state;
# get: a replaced node's pod. patch: the dht.dev/config-files annotation after a new membership, which makes the
# kubelet refresh the members file now rather than after its sync period (up to a minute or more
# per step of a change of size). No watch (no pod informer), no delete (evictions instead).
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "patch"]
# the roller restarts pods through evictions, so that the PodDisruptionBudget arbitrates; a node's
# replacement (dht.dev/replace) takes its pod down the same way: no pod delete
- apiGroups: [""]
  resources: ["pods/eviction"]
  verbs: ["create"]
# the end of a load generator's log, for the report
- apiGroups: [""]
  resources: ["pods/log"]
  verbs: ["get"]
# the claims of members a scale-down removed (labelled, or deleted: detachedClaims), and of a
# replaced node (deleted); patch: a larger spec.storage.size asked of each claim
- apiGroups: [""]
  resources: ["persistentvolumeclaims"]
  verbs: ["get", "list", "patch", "delete"]
# spec.tls.issuerRef: the cert-manager Certificates the operator keeps, <cluster>-node-tls and
# <user>-tls (get by name; update at the version read, only those the DhtCluster or DhtUser owns);
# cert-manager writes their Secrets
- apiGroups: ["cert-manager.io"]
  resources: ["certificates"]
  verbs: ["get", "create", "update"]
# a repeated event raises the count of the one recorded (get, patch)
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "get", "patch"]
{{- end -}}
