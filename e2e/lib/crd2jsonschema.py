#!/usr/bin/env python3
"""crd2jsonschema.py OUT_DIR CRD.yml...: JSON schemas for kubeconform from CRDs' openAPIV3Schema.

Writes OUT_DIR/<kind lowercased>_<version>.json for every served version, the layout of
kubeconform's `-schema-location 'OUT_DIR/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'`
(as yannh/kubeconform's openapi2jsonschema.py does, offline). Strict like `kubeconform -strict`
expects: objects with properties reject unknown ones unless x-kubernetes-preserve-unknown-fields;
x-kubernetes-int-or-string accepts an integer or a string; apiVersion and kind must match.
"""
import copy
import json
import os
import re
import sys

import yaml


class Yaml12Loader(yaml.SafeLoader):
    """YAML 1.2 floats as the apiserver reads them (PyYAML takes 1.6777216E7 for a string)."""


Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+)$"),
    list("-+0123456789"))


def strict(node):
    if isinstance(node, list):
        return [strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: strict(v) for k, v in node.items()}
    if out.get("x-kubernetes-int-or-string"):
        out.pop("type", None)
        out.setdefault("anyOf", [{"type": "integer"}, {"type": "string"}])
    if "properties" in out and not out.get("x-kubernetes-preserve-unknown-fields"):
        out.setdefault("additionalProperties", False)
    if out.get("nullable") and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
    return out


def main(out_dir, files):
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            for crd in yaml.load_all(f, Loader=Yaml12Loader):
                if not crd or crd.get("kind") != "CustomResourceDefinition":
                    continue
                spec = crd["spec"]
                group, kind = spec["group"], spec["names"]["kind"]
                for version in spec["versions"]:
                    if not version.get("served", True):
                        continue
                    schema = copy.deepcopy(version["schema"]["openAPIV3Schema"])
                    schema.setdefault("type", "object")
                    props = schema.setdefault("properties", {})
                    props["apiVersion"] = {"type": "string", "enum": [f"{group}/{version['name']}"]}
                    props["kind"] = {"type": "string", "enum": [kind]}
                    props["metadata"] = {"type": "object"}
                    schema["required"] = sorted(set(schema.get("required", [])) | {"apiVersion", "kind", "metadata"})
                    schema = strict(schema)
                    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
                    name = os.path.join(out_dir, f"{kind.lower()}_{version['name']}.json")
                    with open(name, "w", encoding="utf-8") as out:
                        json.dump(schema, out, indent=1, sort_keys=True)
                    written.append(name)
    if not written:
        sys.exit("crd2jsonschema: no CustomResourceDefinition found in " + " ".join(files))
    for name in written:
        print(name)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
