"""Gamefleet for the stock AWS CLI (and boto3): its `gamelift` commands signed for `execute-api`.

A Gamefleet deployment is an API Gateway HTTP API with IAM auth, which takes only SigV4 signatures
for the service `execute-api`; the AWS CLI's and boto3's GameLift client signs for `gamelift`. With
this module loaded, a GameLift request whose endpoint was configured (`--endpoint-url`,
`AWS_ENDPOINT_URL_GAMELIFT`, `AWS_ENDPOINT_URL`, or an `endpoint_url` of the config file) is
signed for `execute-api`; one that goes to GameLift itself (no endpoint configured) is signed as
before. The credentials are the caller's own, from the usual chain: only the signing name
changes, and IAM decides what the caller may do.

How to enable it for AWS CLI v1 and v2 (a `[plugins]` section of ~/.aws/config) and for boto3:
docs/sdks.md, "Against a deployment in AWS".

Nothing here imports botocore: AWS CLI v2 carries its own copy of it.
"""

SIGNING_NAME = "execute-api"

# Where the endpoint resolution says that an endpoint was configured, for the signer to read.
_CONFIGURED_ENDPOINT = "gamefleet_configured_endpoint"


def awscli_initialize(cli):
    """The AWS CLI's plugin entry point: `cli` is its event emitter."""
    register(cli)


def register(events):
    """Signs GameLift requests to a configured endpoint for execute-api, on this event emitter."""
    events.register("before-endpoint-resolution.gamelift", _note_configured_endpoint)
    events.register("before-sign.gamelift", _sign_for_execute_api)


def _note_configured_endpoint(builtins, context, **kwargs):
    # SDK::Endpoint is the endpoint ruleset's input for a configured endpoint, from wherever it came.
    if builtins.get("SDK::Endpoint"):
        context[_CONFIGURED_ENDPOINT] = True


def _sign_for_execute_api(request, **kwargs):
    if request.context.get(_CONFIGURED_ENDPOINT):
        request.context.setdefault("signing", {})["signing_name"] = SIGNING_NAME
