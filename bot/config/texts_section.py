"""``[texts]``: the business's locale and its own wording of any customer or operator message.

``locale`` (``en_NG``) sets the default language and how money, numbers and days are written;
``service_language`` (``en``) is the language the delivery service writes its customer hints in;
``[texts.en]`` and ``[texts.fr]`` replace shipped messages by id (``conversations/texts``'s
catalogue) for customers reading that language. Every override is checked here, so a bad one
stops ``check-config`` and the start with the key named: an unknown message id, a placeholder
the message does not have, or one it needs that the override dropped.

The catalogue is the core's messages and the channels' own words (``telegram.*``, ``console.*``,
``webapp.*``, in each channel's texts module). The configuration cannot import the channels, so
whoever loads it passes them (``load_config(..., channel_texts=...)``: the command line passes
every channel the bot ships); the overrides are checked against that whole set, and ``texts()``
carries those channels' words.

The catalogue (``conversations.texts.catalogue``) and Babel are imported only when a check
needs them: importing ``conversations`` loads the whole flow engine, which a file without
overrides does not need to be checked (``deliverybot check-config`` stays quick).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import Field, PrivateAttr, ValidationInfo, field_validator, model_validator

from bot.config.config_errors import KeyProblems
from bot.config.section import Section

if TYPE_CHECKING:
    from conversations.texts.catalogue import ChannelTexts, Texts

Overrides = dict[str, str]
ChannelTextsSource = Callable[[], "Sequence[ChannelTexts]"]
"""The channels' words an override may name, asked for only when there are overrides (loading
them loads the catalogue, which a file without overrides does not need)."""
CHANNEL_TEXTS = "channel_texts"
"""The key of the ``ChannelTextsSource`` in the validation context."""

DEFAULT_LOCALE = "en_NG"
"""The catalogue's own default (``conversations.texts.catalogue.DEFAULT_LOCALE``), written here
so the default does not import the catalogue; a test keeps the two equal."""


class TextsConfig(Section):
    """``[texts]``: locale, and overrides by language (``[texts.en]``: ``"desk.none_yet" =
    "..."``)."""

    locale: str = DEFAULT_LOCALE
    # The language the delivery service writes its customer hints in: a hint reaches only
    # customers reading it; everyone else gets the bot's own sentence in their language.
    service_language: str = "en"
    en: Overrides = Field(default_factory=dict)
    fr: Overrides = Field(default_factory=dict)
    # The channels' words the overrides were checked against (none without overrides).
    _channels: tuple[ChannelTexts, ...] = PrivateAttr(default=())

    @model_validator(mode="before")
    @classmethod
    def _dotted_ids(cls, data: object) -> object:
        # ``desk.none_yet = "..."`` unquoted is a nested table in TOML: read it as the id.
        if not isinstance(data, dict):
            return data
        unknown = [
            str(key)
            for key, value in data.items()
            if isinstance(value, dict) and key not in cls.model_fields
        ]
        if unknown:
            from conversations.texts.catalogue import SHIPPED

            shipped = ", ".join(SHIPPED)
            raise KeyProblems(
                [((key,), f"no shipped language {key} (shipped: {shipped})") for key in unknown]
            )
        return {
            key: _flatten(value) if key in ("en", "fr") and isinstance(value, dict) else value
            for key, value in data.items()
        }

    @field_validator("locale")
    @classmethod
    def _locale(cls, value: str) -> str:
        from babel import Locale, UnknownLocaleError

        try:
            Locale.parse(value)
        except (UnknownLocaleError, ValueError):
            raise ValueError(
                f"{value!r} is not a locale Babel knows (like en_NG, en_GB or fr_FR)"
            ) from None
        return value

    @field_validator("service_language")
    @classmethod
    def _service_language(cls, value: str) -> str:
        code = value.strip().replace("-", "_").split("_")[0].casefold()
        if not code.isalpha():
            raise ValueError(f"{value!r} is not a language code (like en or fr)")
        return code

    @field_validator("en", "fr")
    @classmethod
    def _overrides(cls, value: Overrides, info: ValidationInfo) -> Overrides:
        if not value:  # nothing to check against the catalogue
            return value
        from conversations.texts.catalogue import problems_with

        found = problems_with(value, info.field_name or "", _channel_texts(info))
        if found:
            raise KeyProblems([((message_id,), why) for message_id, why in found])
        return value

    @model_validator(mode="after")
    def _keep_channels(self, info: ValidationInfo) -> TextsConfig:
        if self.en or self.fr:
            self._channels = _channel_texts(info)
        return self

    def texts(self) -> Texts:
        """The business's catalogues, ready to ``install``: with the words of the channels
        the overrides were checked against."""
        from conversations.texts.catalogue import Texts

        tables = {"en": self.en, "fr": self.fr}
        overrides = {language: table for language, table in tables.items() if table}
        return Texts(
            self.locale,
            overrides,
            service_language=self.service_language,
            channels=self._channels,
        )


def _channel_texts(info: ValidationInfo) -> tuple[ChannelTexts, ...]:
    source = (info.context or {}).get(CHANNEL_TEXTS)
    return () if source is None else tuple(source())


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat
