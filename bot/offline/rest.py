"""The offline Discord's REST backend: what discord.py sends is checked, faulted or answered here."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import discord
import discord.client
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord_api import Violation, description
from bot.i18n import is_marked
from bot.offline.base import HarnessBase
from bot.offline.common import (
    CANNOT_DM,
    EPHEMERAL,
    INITIAL_RESPONSE,
    LOADING,
    TOKEN_LIFETIME,
    HarnessError,
    current_interaction,
    http_error,
    passed,
    stable_id,
    unchecked_shape,
)
from bot.offline.recorder import Message, SentFile
from bot.offline.world import InteractionRecord


def _decode_body(
    payload: dict[str, Any] | None, multipart: Iterable[dict[str, Any]] | None, files: Sequence[discord.File] | None
) -> tuple[dict[str, Any], list[SentFile]]:
    """JSON body and file bytes of a request, whichever of json/multipart form discord.py chose."""
    # A JSON list body (bulk command overwrite) is kept as it is.
    body: Any = list(payload) if isinstance(payload, list) else dict(payload or {})
    for part in multipart or ():
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
    sent: list[SentFile] = []
    for f in files or ():
        f.reset(seek=True)
        sent.append(SentFile(f.filename, f.fp.read(), f.description))
        f.reset(seek=True)
    return body, sent


def _marked_paths(value: Any, path: str) -> Iterator[str]:
    """Where in a request's JSON a text holds one of the text layers' marks."""
    if isinstance(value, str):
        if is_marked(value):
            yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _marked_paths(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _marked_paths(item, f"{path}[{index}]")


def _match(template: str, url: str) -> dict[str, str]:
    pattern = re.escape(Route.BASE + template)
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/?]+)", pattern)
    m = re.fullmatch(pattern, url)
    return m.groupdict() if m else {}


class RecordingWebhookAdapter(AsyncWebhookAdapter):
    """Stands in for Discord's webhook/interaction endpoints (responses, followups, @original)."""

    def __init__(self, harness: Any) -> None:
        super().__init__()
        self._harness = harness

    async def request(
        self,
        route: Route,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Sequence[discord.File] | None = None,
        params: dict[str, Any] | None = None,
        **_: Any,
    ) -> Any:
        body, sent = _decode_body(payload, multipart, files)
        await asyncio.sleep(0)  # a real request yields to the loop; races must be able to interleave here too
        await self._harness.meet_faults(route, body)
        return self._harness._webhook_call(route, body, sent, params or {})




class RestBackend(HarnessBase):
    """The REST side of the offline Discord (a mixin of DiscordHarness): every request checked against
    Discord's description, planted faults met, then answered as Discord answers it."""

    # -- Discord's published description: every request checked, every answer too ----------------------------------

    @contextlib.contextmanager
    def refused_as_discord_would(self) -> Iterator[None]:
        """For a test that sends a body Discord refuses on purpose: answer it with Discord's 400 Invalid Form Body
        (a ``discord.HTTPException``) instead of failing the test."""
        self._expect_refusal = True
        try:
            yield
        finally:
            self._expect_refusal = False

    def _check_request(self, method: str, url: str, body: Any) -> None:
        if self.check_contract:
            found = description().check_request(method, url, body)
            if found and self._expect_refusal:
                raise http_error(400, 50035, f"Invalid Form Body: {'; '.join(map(str, found))}")
            if found:
                raise self._violation(found, "a request of the bot")

    def _check_shown(self, key: str, body: Any, files: Sequence[SentFile]) -> None:
        """No text a person sees may carry the marks the bot's text layers put around names (bot/i18n/marks.py):
        Discord would show them as boxes, and a mark that got through means a text skipped its last escaping."""
        found = [Violation(key, path, "a name's internal mark reached Discord (safe_text or plain was skipped)")
                 for path in _marked_paths(body, "$")]
        found += [Violation(key, f"file {file.filename}", "a name's internal mark reached Discord in a file")
                  for file in files if is_marked(file.description or "") or (
                      not file.filename.endswith(".png") and is_marked(file.data.decode("utf-8", "replace")))]
        if found:
            raise self._violation(found, "a request of the bot")

    def _check_answer(self, method: str, url: str, answer: Any) -> Any:
        """What the offline Discord answers must be what Discord answers: the route's 200 (or 204) schema (checked
        once per shape of answer: see common.shape_of)."""
        spec = description().route(method, url) if self.check_contract else None
        shape = unchecked_shape(spec.key if spec else f"{method} {url}", answer) if self.check_contract else None
        if shape is not None:
            found = description().check_response(method, url, answer)
            if found:
                raise self._violation(found, "the offline Discord's answer")
            passed(shape)
        return answer

    # -- the wire ------------------------------------------------------------------------------------------------------

    def _interaction_for(self, route: Route) -> InteractionRecord:
        rec = self.world.interactions.get(route.webhook_token or "")
        if rec is None:
            raise http_error(404, 10015, "Unknown Webhook")
        return rec

    async def meet_faults(self, route: Route, body: Any) -> None:
        """The faults a test planted on this route (World.fail_next). A 429 is waited out and retried, as
        discord.py's request loops do (wait ``retry_after``, at most 5 tries: they are bypassed here); any other
        status is raised as the HTTPException discord.py raises for it."""
        key = f"{route.method} {route.path}"
        named = _match(route.path, route.url).get("channel_id")
        channel_id = int(named) if named is not None else None
        if channel_id is None and route.webhook_token in self.world.interactions:
            channel_id = self.world.interactions[route.webhook_token].channel_id
        for _attempt in range(5):
            fault = self.world.take_fault(key, body, channel_id)
            if fault is None:
                return
            self.world.requests.append({"route": key, "url": route.url, "body": body, "answered": fault.status,
                                        "interaction_id": current_interaction.get()})
            if fault.status != 429:
                raise fault.error()
            await asyncio.sleep(fault.retry_after)
        raise http_error(429, 0, "You are being rate limited.")

    def _check_token_age(self, route: Route, key: str) -> None:
        """Discord's clock on interaction tokens: the initial response within 3 seconds of the interaction, and
        the token's webhook (followups, @original) for 15 minutes only."""
        rec = self.world.interactions.get(route.webhook_token or "")
        if rec is None or rec.fed_at is None:
            return
        age = self.world.clock() - rec.fed_at
        if key == "POST /interactions/{webhook_id}/{webhook_token}/callback":
            waited = max(age.total_seconds(), asyncio.get_running_loop().time() - rec.fed_loop)
            if waited > INITIAL_RESPONSE.total_seconds() and not rec.responded:
                raise http_error(404, 10062, "Unknown interaction")
        elif age > TOKEN_LIFETIME:
            raise http_error(401, 50027, "Invalid Webhook Token")

    def _webhook_call(self, route: Route, body: dict[str, Any], files: list[SentFile], params: dict[str, Any]) -> Any:
        key = f"{route.method} {route.path}"
        self.world.requests.append({"route": key, "url": route.url, "body": body, "files": files, "params": params})
        self._check_request(route.method, route.url, body)
        self._check_shown(key, body, files)
        self._check_token_age(route, key)
        return self._check_answer(route.method, route.url, self._webhook_answer(route, key, body, files))

    def _webhook_answer(self, route: Route, key: str, body: dict[str, Any], files: list[SentFile]) -> Any:
        if key == "POST /interactions/{webhook_id}/{webhook_token}/callback":
            return self._interaction_callback(self._interaction_for(route), body, files, key)
        if route.path.startswith("/webhooks/{webhook_id}/{webhook_token}"):
            rec = self._interaction_for(route)
            if not rec.responded:
                # Discord only creates the followup webhook once the interaction was acknowledged.
                raise http_error(404, 10015, "Unknown Webhook")
            allowed = self.world.permissions_in(rec.channel_id)  # the app's own permissions hold for files, embeds
            if (files and not allowed.attach_files) or ((body or {}).get("embeds") and not allowed.embed_links):
                raise http_error(403, 50013, "Missing Permissions")
            if key == "POST /webhooks/{webhook_id}/{webhook_token}":
                return self._followup(rec, body, files, key)
            if route.path.endswith("/@original"):
                if rec.original_id is None:
                    raise http_error(404, 10008, "Unknown Message")
                mid = rec.original_id
            else:
                mid = int(_match(route.path, route.url)["message_id"])
            return self._message_op(rec.id, route.method, mid, body, files, key, rec)
        raise HarnessError(f"unhandled webhook route {key}")

    def _interaction_callback(
        self, rec: InteractionRecord, body: dict[str, Any], files: list[SentFile], key: str
    ) -> dict[str, Any] | None:
        if rec.responded:
            raise http_error(400, 40060, "Interaction has already been acknowledged.")
        rtype = int(body["type"])
        data = body.get("data") or {}
        rec.responded = True
        info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        resource: dict[str, Any] = {"type": rtype}
        if rtype == 4:
            msg = self._interaction_message(rec, data, files)
            rec.original_id = msg.id
            self.world.record_message("response", msg, interaction_id=rec.id, body=body, route=key, created=True)
        elif rtype == 5:
            flags = LOADING | (int(data.get("flags", 0)) & EPHEMERAL)
            msg = self.world.create_message(
                rec.channel_id,
                {},
                [],
                author=self.bot_user,
                flags=flags,
                visible_to=rec.user_id if flags & EPHEMERAL else None,
                interaction_id=rec.id,
                webhook=True,
            )
            rec.original_id, rec.defer_pending, rec.defer_flags = msg.id, True, flags & EPHEMERAL
            self.world.record_message("defer", msg, interaction_id=rec.id, body=body, route=key)
        elif rtype in (6, 7):
            if rec.component_message_id is None:
                raise http_error(400, 40004, "message update responses are only valid for component interactions")
            rec.original_id = rec.component_message_id
            if rtype == 6:
                self.world.record(
                    "defer_update",
                    interaction_id=rec.id,
                    channel_id=rec.channel_id,
                    message_id=rec.original_id,
                    payload=body,
                    route=key,
                )
                return {"interaction": info}
            msg = self.world.edit_message(rec.original_id, data, files)
            self.world.record_message("update", msg, interaction_id=rec.id, body=body, route=key)
        elif rtype == 8:
            self.world.record(
                "autocomplete",
                interaction_id=rec.id,
                channel_id=rec.channel_id,
                choices=list(data.get("choices", [])),
                payload=body,
                route=key,
            )
            return None
        else:
            self.world.record(
                "modal" if rtype == 9 else f"callback_{rtype}",
                interaction_id=rec.id,
                channel_id=rec.channel_id,
                payload=body,
                route=key,
            )
            return {"interaction": info}
        msg = self.world.get_message(rec.original_id)
        info.update(
            response_message_id=str(msg.id),
            response_message_loading=msg.loading,
            response_message_ephemeral=msg.ephemeral,
        )
        if rtype == 5:  # Discord's description: a resource only for a message sent (4) or updated (7)
            return {"interaction": info}
        resource["message"] = copy.deepcopy(msg.payload)
        return {"interaction": info, "resource": resource}

    def _interaction_message(self, rec: InteractionRecord, body: dict[str, Any], files: list[SentFile]) -> Message:
        """A new message sent on behalf of an interaction (a response or a followup), ephemeral if flagged."""
        flags = int(body.get("flags", 0)) & (EPHEMERAL | 1 << 2 | 1 << 12 | 1 << 15)
        return self.world.create_message(
            rec.channel_id,
            body,
            files,
            author=self.bot_user,
            flags=flags,
            visible_to=rec.user_id if flags & EPHEMERAL else None,
            interaction_id=rec.id,
            webhook=True,
        )

    def _followup(self, rec: InteractionRecord, body: dict[str, Any], files: list[SentFile], key: str) -> Any:
        created = not rec.defer_pending
        if rec.defer_pending:
            # Discord: the first followup after a type-5 defer *replaces* the "thinking…" message, and keeps the
            # defer's ephemerality whatever the followup asked for. It is an edit: its mentions notify nobody.
            rec.defer_pending = False
            assert rec.original_id is not None, "a deferral records the message it will replace"
            msg = self.world.edit_message(rec.original_id, body, files)
            msg.payload["flags"] = (msg.flags & ~EPHEMERAL) | rec.defer_flags
        else:
            msg = self._interaction_message(rec, body, files)
        self.world.record_message("followup", msg, interaction_id=rec.id, body=body, route=key, created=created)
        return copy.deepcopy(msg.payload)

    def _message_op(
        self,
        interaction_id: int | None,
        method: str,
        message_id: int,
        body: dict[str, Any],
        files: list[SentFile],
        key: str,
        rec: InteractionRecord | None = None,
    ) -> Any:
        if method == "GET":
            return copy.deepcopy(self.world.get_message(message_id).payload)
        if method == "PATCH":
            msg = self.world.edit_message(message_id, body, files)
            if rec is not None and rec.original_id == message_id:
                rec.defer_pending = False
            self.world.record_message("edit", msg, interaction_id=interaction_id, body=body, route=key)
            return copy.deepcopy(msg.payload)
        if method == "DELETE":
            msg = self.world.delete_message(message_id)
            self.world.record(
                "delete",
                interaction_id=interaction_id,
                channel_id=msg.channel_id,
                message_id=message_id,
                ephemeral=msg.ephemeral,
                route=key,
            )
            return None
        raise HarnessError(f"unhandled message method {method} {key}")

    async def _http_request(
        self,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Replacement for ``bot.http.request``: answers like Discord's REST API would."""
        body, sent = _decode_body(kwargs.get("json"), list(form or ()), files)
        key = f"{route.method} {route.path}"
        args = _match(route.path, route.url)
        iid = current_interaction.get()
        self._check_request(route.method, route.url, body if files or form else kwargs.get("json"))
        self._check_shown(key, body, sent)
        await asyncio.sleep(0)  # a real request yields to the loop; races must be able to interleave here too
        await self.meet_faults(route, body)  # each planted answer is recorded as a request of its own
        self.world.requests.append(
            {
                "route": key,
                "url": route.url,
                "body": body,
                "files": sent,
                "params": kwargs.get("params"),
                "interaction_id": iid,
            }
        )
        answer = self._rest_answer(route, key, args, body, sent, iid, kwargs)
        return self._check_answer(route.method, route.url, answer)

    def _rest_answer(self, route: Route, key: str, args: dict[str, str], body: Any, sent: list[SentFile],
                     iid: int | None, kwargs: dict[str, Any]) -> Any:
        if key in self.routes:
            return self.routes[key](route, args, body, sent)
        if key == "POST /channels/{channel_id}/messages":
            channel_id = int(args["channel_id"])
            channel = self.world.channel_by_id(channel_id)
            if channel.is_dm:  # no permissions in a DM: the member's privacy settings decide
                if channel.recipient is not None and channel.recipient.id in self.world.dms_refused:
                    raise http_error(403, CANNOT_DM, "Cannot send messages to this user")
            else:
                allowed = self.world.permissions_in(channel_id)
                may_send = allowed.send_messages_in_threads if channel.is_thread else allowed.send_messages
                if not allowed.view_channel:
                    raise http_error(403, 50001, "Missing Access")
                embeds_refused = bool(body.get("embeds")) and not allowed.embed_links
                if not may_send or (sent and not allowed.attach_files) or embeds_refused:
                    raise http_error(403, 50013, "Missing Permissions")
            nonce = str(body["nonce"]) if body.get("nonce") is not None and body.get("enforce_nonce") else None
            if nonce is not None:  # Discord: the same author's nonce within a few minutes returns that message
                seen = self.world.nonces.get((channel_id, nonce))
                if (seen is not None and self.world.clock() - seen[1] <= self.world.nonce_window
                        and seen[0] in self.world.messages):
                    return copy.deepcopy(self.world.get_message(seen[0]).payload)
            msg = self.world.create_message(channel_id, body, sent, author=self.bot_user, interaction_id=iid)
            if nonce is not None:
                self.world.nonces[(channel_id, nonce)] = (msg.id, self.world.clock())
            self.world.record_message("channel_message", msg, interaction_id=iid, body=body, route=key,
                                      created=True)
            return copy.deepcopy(msg.payload)
        if route.path == "/channels/{channel_id}/messages/{message_id}":
            return self._message_op(iid, route.method, int(args["message_id"]), body, sent, key)
        if key == "POST /users/@me/channels":  # open (or find) the bot's DM channel with a user
            return self.world.dm_channel(self._user_by_id(int(body["recipient_id"]))).payload()
        if key == "GET /channels/{channel_id}":
            return self.world.channel_by_id(int(args["channel_id"])).payload()
        if key == "GET /channels/{channel_id}/messages":  # the channel's history, newest first
            params = kwargs.get("params") or {}
            after, limit = int(params.get("after") or 0), int(params.get("limit") or 50)
            found = [m for m in self.world.channel_messages(self.world.channel_by_id(int(args["channel_id"])).id)
                     if m.id > after]
            return [copy.deepcopy(m.payload) for m in reversed(found[:limit] if after else found[-limit:])]
        if key == "POST /channels/{channel_id}/threads":
            thread = self.world.create_thread(int(args["channel_id"]), body, self.bot_user.id)
            data = thread.payload()
            # The THREAD_CREATE event follows. (discord.py types raw payloads as TypedDicts; the world builds JSON)
            self.bot._connection.parse_thread_create(copy.deepcopy(data))  # type: ignore[arg-type]
            return data
        if key == "DELETE /channels/{channel_id}":
            channel = self.world.channel_by_id(int(args["channel_id"]))
            channel.deleted = True
            return channel.payload()
        if key == "POST /channels/{channel_id}/typing":
            return None
        if key == "GET /users/{user_id}":
            return self._user_by_id(int(args["user_id"])).user_payload()
        if key == "GET /guilds/{guild_id}/members/{user_id}":
            return self._user_by_id(int(args["user_id"])).member_payload()
        if "/reactions/" in route.path or "/pins" in route.path:
            return None
        if key in (
            "PUT /applications/{application_id}/commands",
            "PUT /applications/{application_id}/guilds/{guild_id}/commands",
        ):
            guild_id = args.get("guild_id")
            return [self._command_as_returned(cmd, guild_id) for cmd in kwargs.get("json") or []]
        raise HarnessError(f"unhandled REST route {key} ({route.url}); add one with harness.route()")

    def _command_as_returned(self, command: dict[str, Any], guild_id: str | None) -> dict[str, Any]:
        """A registered command as Discord answers it: ids added, permissions as a string, defaults spelled out."""
        cid = self.world.command_ids.setdefault(command["name"], stable_id("command", command["name"]))
        out = {key: value for key, value in command.items() if value is not None}
        permissions = command.get("default_member_permissions")
        out.update(id=str(cid), application_id=str(self.world.application_id), version=str(stable_id("version", "1")),
                   type=command.get("type", 1), default_member_permissions=None if permissions is None
                   else str(permissions), integration_types=command.get("integration_types") or [0],
                   nsfw=bool(command.get("nsfw", False)))
        if guild_id is not None:
            out["guild_id"] = guild_id
        return out

    async def _get_from_cdn(self, url: str) -> bytes:
        """``Attachment.read()`` without network: serve the bytes the fake Discord stored."""
        m = re.search(r"/(\d+)/[^/]+$", url)
        if m and int(m.group(1)) in self.world.attachments:
            return self.world.attachments[int(m.group(1))].data
        raise http_error(404, 0, "asset not found")
