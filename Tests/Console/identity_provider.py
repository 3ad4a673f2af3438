"""A small OpenID Connect identity provider for the console's browser tests: discovery, a JWKS with one ES256 key,
an authorize endpoint that sends the browser straight back with a code, and a token endpoint that checks the PKCE
verifier and answers a signed ID token. Signing uses the `cryptography` package (pip install cryptography)."""

import base64
import hashlib
import json
import secrets
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class IdentityProvider:
    """Runs on 127.0.0.1 on a port of the system's choosing until `stop()`. `person` is who signs in next."""

    def __init__(self, audience="switchboard"):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.kid = "browser-test-key"
        self.audience = audience
        self.person = {"email": "ana@example.com", "groups": ["flag-admins"]}
        self.codes = {}
        self.authorizations = []
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                provider.get(self)

            def do_POST(self):
                provider.post(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.issuer = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def access_file(self):
        """An access file trusting this provider: flag-admins are admins, payments writes shop only."""
        return (f"oidc:\n  issuer: {self.issuer}\n  audience: {self.audience}\n  name_claim: email\n"
                "  roles:\n    claim: groups\n    map:\n      flag-admins: { role: admin }\n"
                "      payments: { role: write, namespaces: [shop] }\n")

    def id_token(self, claims):
        header = {"alg": "ES256", "typ": "JWT", "kid": self.kid}
        signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
        r, s = decode_dss_signature(self.key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))

    def jwks(self):
        numbers = self.key.public_key().public_numbers()
        return {"keys": [{"kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": self.kid,
                          "x": b64url(numbers.x.to_bytes(32, "big")), "y": b64url(numbers.y.to_bytes(32, "big"))}]}

    def get(self, request):
        url = urllib.parse.urlsplit(request.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/.well-known/openid-configuration":
            return self.json(request, {
                "issuer": self.issuer, "authorization_endpoint": self.issuer + "/authorize",
                "token_endpoint": self.issuer + "/token", "jwks_uri": self.issuer + "/jwks"})
        if url.path == "/jwks":
            return self.json(request, self.jwks())
        if url.path == "/authorize":
            self.authorizations.append(query)
            code = secrets.token_urlsafe(16)
            self.codes[code] = (query, dict(self.person))
            back = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": query["state"]})
            request.send_response(302)
            request.send_header("Location", back)
            request.end_headers()
            return None
        request.send_response(404)
        request.end_headers()
        return None

    def post(self, request):
        length = int(request.headers.get("Content-Length") or 0)
        form = dict(urllib.parse.parse_qsl(request.rfile.read(length).decode()))
        grant = self.codes.pop(form.get("code"), None)
        if grant is None:
            return self.json(request, {"error": "invalid_grant"}, status=400)
        authorization, person = grant
        challenge = b64url(hashlib.sha256(form.get("code_verifier", "").encode()).digest())
        if challenge != authorization.get("code_challenge") or form.get("redirect_uri") != authorization["redirect_uri"]:
            return self.json(request, {"error": "invalid_grant"}, status=400)
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": authorization["client_id"], "exp": now + 600, "iat": now,
                  "nonce": authorization["nonce"], "email": person["email"], "groups": person["groups"]}
        return self.json(request, {"access_token": "opaque", "token_type": "Bearer",
                                   "id_token": self.id_token(claims)})

    @staticmethod
    def json(request, document, status=200):
        body = json.dumps(document).encode()
        request.send_response(status)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)
