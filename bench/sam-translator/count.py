#!/usr/bin/env python3
"""Counts the resources CloudFormation builds from template.yaml, by type, with every parameter at its default.

The template goes through the transforms its Transform line names, in order, as CloudFormation runs them:
AWS::LanguageExtensions (Fn::ForEach, Fn::FindInMap), with cfn-lint's implementation of it (the only one that runs
offline), then AWS::Serverless-2016-10-31, with the SAM translator's public entry point
(samtranslator.translator.transform.transform). Both ship with cfn-lint, in its Python environment:

    $(pyenv prefix)/bin/python bench/sam-translator/count.py [template.yaml]

Prints one line per resource type and the total; with --json, the translated resources themselves, sorted, to
compare two templates (diff the two outputs). There each parameter is shown as its default, and an Fn::Sub whose
variables are all literals (what a loop's Fn::FindInMap leaves) as the string CloudFormation makes of it when it
creates the stack, so that a template with AWS::LanguageExtensions and one without compare alike.
"""
import json
import os
import re
import sys

from cfnlint.decode import decode
from cfnlint.decode.utils import convert_dict
from cfnlint.template import Template
from cfnlint.template.transforms._language_extensions import language_extension
from samtranslator.translator.transform import transform

LANGUAGE_EXTENSIONS = "AWS::LanguageExtensions"
SERVERLESS = "AWS::Serverless-2016-10-31"


class NoManagedPolicies:
    """The translator asks IAM for AWS managed policies only when a function names one: none does here."""

    def load(self):
        return {}


def translated(path):
    template, matches = decode(path)
    if matches:
        sys.exit("cannot read %s: %s" % (path, matches))
    transforms = template.get("Transform", [])
    transforms = transforms if isinstance(transforms, list) else [transforms]
    if LANGUAGE_EXTENSIONS in transforms:
        errors, template = language_extension(Template(path, template, ["us-east-1"]))
        if errors:
            sys.exit("AWS::LanguageExtensions refused %s: %s" % (path, errors))
    template = convert_dict(template)
    defaults = {name: p["Default"] for name, p in template.get("Parameters", {}).items() if "Default" in p}
    # A required parameter (no default): any well-formed value, as `sam deploy` would be given.
    defaults.setdefault("CursorKeySecret", "arn:aws:secretsmanager:us-east-1:123456789012:secret:cursor-keys")
    if LANGUAGE_EXTENSIONS in transforms:
        # The transform also puts the stack's parameter values into Resources before SAM's runs (SAM's issue 2533;
        # cfn-lint does the same with the defaults).
        template["Resources"] = with_values(template["Resources"], defaults)
    template["Transform"] = SERVERLESS
    # What `sam deploy` does before CloudFormation sees the template: each local CodeUri becomes its uploaded zip.
    for resource in template["Resources"].values():
        properties = resource.get("Properties", {})
        if resource.get("Type") == "AWS::Serverless::Function" and isinstance(properties.get("CodeUri"), str):
            properties["CodeUri"] = "s3://deployment-bucket/" + properties["CodeUri"]
    return transform(template, defaults, NoManagedPolicies()), defaults


def with_values(value, parameters):
    """value with each Ref to a parameter replaced by the parameter's value."""
    if isinstance(value, dict):
        if len(value) == 1 and isinstance(value.get("Ref"), str) and value["Ref"] in parameters:
            return parameters[value["Ref"]]
        return {k: with_values(v, parameters) for k, v in value.items()}
    if isinstance(value, list):
        return [with_values(v, parameters) for v in value]
    return value


def folded(value):
    """value with each Fn::Sub [text, {literal variables}] replaced by its text, the variables put in."""
    if isinstance(value, dict):
        sub = value.get("Fn::Sub") if len(value) == 1 else None
        if isinstance(sub, list) and len(sub) == 2 and isinstance(sub[0], str) and isinstance(sub[1], dict):
            names = set(re.findall(r"\$\{([^!}][^}]*)\}", sub[0]))
            variables = sub[1]
            if names <= set(variables) and all(isinstance(v, (str, int, float)) for v in variables.values()):
                return re.sub(r"\$\{([^!}][^}]*)\}", lambda m: str(variables[m.group(1)]), sub[0]).replace("${!", "${")
        return {k: folded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [folded(v) for v in value]
    return value


def main():
    # The translator needs a region for ARNs; no call leaves the machine.
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = args[0] if args else "template.yaml"
    template, defaults = translated(path)
    resources = template["Resources"]
    by_type = {}
    for resource in resources.values():
        by_type[resource["Type"]] = by_type.get(resource["Type"], 0) + 1
    for kind in sorted(by_type):
        print("%4d %s" % (by_type[kind], kind))
    print("%4d resources" % len(resources))
    if "--json" in sys.argv:
        print(json.dumps(folded(with_values(resources, defaults)), indent=1, sort_keys=True, default=str))


if __name__ == "__main__":
    main()
