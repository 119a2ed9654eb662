/*
 * The "Pick on the map" page: one open place question of one chat (bot/webapp/routes.py).
 *
 * It reads the question from the bot (saved places with their unit rules, the coverage
 * circles, the answer already given, the step and version), lets the customer pick a saved
 * place (and its unit, as the chat asks it), search an address, or place the pin, refuses a
 * pin outside the coverage as the chat would, and sends the pick back with
 * Telegram.WebApp.sendData. The bot checks it again as any answer (bot/webapp/picks.py).
 * Without the map (tiles or the library failed), the saved places and the search still work.
 */
(function () {
  "use strict";
  var tg = window.Telegram.WebApp;
  var chat = new URLSearchParams(window.location.search).get("chat") || "";
  var $ = function (id) { return document.getElementById(id); };
  var texts = {};
  var question = null;
  var choice = null; // {kind: "saved", place} or {kind: "pin", lat, lng}
  var map = null;
  var pin = null;
  var savedButtons = {};

  function say(key, values) {
    var text = texts[key] || "";
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(values[name]);
    });
    return text;
  }

  function status(text, refusal) {
    $("status").textContent = text || "";
    $("status").classList.toggle("refusal", Boolean(refusal));
  }

  function applyTheme() {
    var theme = tg.themeParams || {};
    var names = {
      bg_color: "--tg-bg", text_color: "--tg-text", hint_color: "--tg-hint",
      link_color: "--tg-link", button_color: "--tg-button",
      button_text_color: "--tg-button-text", secondary_bg_color: "--tg-secondary-bg",
      destructive_text_color: "--tg-destructive",
    };
    Object.keys(names).forEach(function (key) {
      if (typeof theme[key] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(theme[key])) {
        document.documentElement.style.setProperty(names[key], theme[key]);
      }
    });
  }

  function api(path) {
    var separator = path.indexOf("?") < 0 ? "?" : "&";
    return fetch("api/" + path + separator + "chat=" + encodeURIComponent(chat), {
      headers: { Authorization: "tma " + tg.initData },
      cache: "no-store",
    }).then(function (response) {
      return response.json().then(function (body) {
        return { ok: response.ok, status: response.status, body: body };
      });
    });
  }

  // --- coverage: the chat's early refusal, drawn ------------------------------------------

  function inside(lat, lng) {
    var circles = question.coverage.circles;
    if (!circles.length) {
      return true;
    }
    return circles.some(function (circle) {
      return distanceMetres(lat, lng, circle.lat, circle.lng) <= circle.radius_m;
    });
  }

  function distanceMetres(lat1, lng1, lat2, lng2) {
    var rad = Math.PI / 180;
    var dLat = (lat2 - lat1) * rad;
    var dLng = (lng2 - lng1) * rad;
    var a = Math.sin(dLat / 2) * Math.sin(dLat / 2) +
      Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) * Math.sin(dLng / 2);
    return 6371008.8 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
  }

  // --- choosing ----------------------------------------------------------------------------

  function chooseSaved(place, unit) {
    choice = { kind: "saved", place: place };
    Object.keys(savedButtons).forEach(function (id) {
      savedButtons[id].setAttribute("aria-pressed", String(id === place.id));
    });
    showUnit(place.unit, unit);
    $("chosen").textContent = say("chosen", { place: place.name });
    status("");
    if (map) {
      map.setView([place.lat, place.lng], Math.max(map.getZoom(), 16));
    }
    refreshMainButton();
  }

  function choosePin(lat, lng, address) {
    Object.keys(savedButtons).forEach(function (id) {
      savedButtons[id].setAttribute("aria-pressed", "false");
    });
    unitError("");
    $("unit-section").hidden = true;
    if (address !== undefined) {
      $("address").value = address;
    }
    if (map) {
      placePin(lat, lng);
    }
    if (!inside(lat, lng)) {
      choice = null;
      $("chosen").textContent = "";
      status(texts.outside, true);
    } else {
      choice = { kind: "pin", lat: lat, lng: lng };
      $("chosen").textContent = say("chosen", {
        place: $("address").value || lat.toFixed(5) + ", " + lng.toFixed(5),
      });
      status("");
    }
    refreshMainButton();
  }

  function placePin(lat, lng) {
    pin.setLatLng([lat, lng]);
    if (!map.hasLayer(pin)) {
      pin.addTo(map);
    }
    map.setView([lat, lng], Math.max(map.getZoom(), 15));
  }

  function showUnit(rules, given) {
    unitError("");
    var section = $("unit-section");
    var select = $("unit-select");
    var text = $("unit-text");
    var optional = rules.required ? "" : " " + texts.unit_optional;
    section.hidden = rules.mode === "none";
    select.textContent = "";
    text.value = "";
    if (rules.mode === "list") {
      $("unit-select-label").textContent = rules.label + optional;
      select.hidden = false;
      $("unit-select-label").hidden = false;
      addOption(select, "", "—");
      rules.choices.forEach(function (value) { addOption(select, value, value); });
      if (rules.allow_custom) {
        addOption(select, "\u0000other", texts.unit_other);
      }
      var listed = given && rules.choices.indexOf(given) >= 0;
      select.value = listed ? given : (given && rules.allow_custom ? "\u0000other" : "");
      text.value = given && !listed && rules.allow_custom ? given : "";
      $("unit-text-label").textContent = rules.label + ": " + texts.unit_other;
      syncCustom();
    } else if (rules.mode === "free_text") {
      select.hidden = true;
      $("unit-select-label").hidden = true;
      $("unit-text-label").textContent = rules.label + optional;
      $("unit-text-label").hidden = false;
      text.hidden = false;
      text.value = given || "";
    }
  }

  function addOption(select, value, label) {
    var option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    select.appendChild(option);
  }

  function syncCustom() {
    var custom = $("unit-select").value === "\u0000other";
    $("unit-text").hidden = !custom;
    $("unit-text-label").hidden = !custom;
  }

  // The field the customer gives the unit in now: the list, or the text beside it.
  function unitField() {
    var select = $("unit-select");
    return !select.hidden && select.value !== "\u0000other" ? select : $("unit-text");
  }

  // Said under the unit's own field (the page is long: the top is out of view from there),
  // which is brought into view; "" takes it away.
  function unitError(text) {
    var error = $("unit-error");
    error.textContent = text;
    error.hidden = !text;
    ["unit-select", "unit-text"].forEach(function (id) {
      if (text) {
        $(id).setAttribute("aria-invalid", "true");
        $(id).setAttribute("aria-describedby", "unit-error");
      } else {
        $(id).removeAttribute("aria-invalid");
        $(id).removeAttribute("aria-describedby");
      }
    });
    if (text) {
      var field = unitField();
      field.scrollIntoView({ block: "center" });
      field.focus({ preventScroll: true });
    }
  }

  // Once a unit is given (chosen in the list, or typed), what was said about it goes.
  function unitChanged() {
    syncCustom();
    if (choice && choice.kind === "saved" && unitValue(choice.place.unit)) {
      unitError("");
    }
  }

  function unitValue(rules) {
    if (rules.mode === "list") {
      var picked = $("unit-select").value;
      return picked === "\u0000other" ? $("unit-text").value.trim() : picked;
    }
    return rules.mode === "free_text" ? $("unit-text").value.trim() : "";
  }

  function refreshMainButton() {
    if (choice) {
      tg.MainButton.enable();
    } else {
      tg.MainButton.disable();
    }
  }

  // --- the way back ------------------------------------------------------------------------

  function confirm() {
    if (!choice) {
      status(texts.pick_first, true);
      return;
    }
    var pick = { v: 1, step: question.step, version: question.version };
    if (choice.kind === "saved") {
      var rules = choice.place.unit;
      var unit = unitValue(rules);
      if (!unit && rules.required) {
        unitError(say("unit_missing", { label: rules.label }));
        return;
      }
      if (unit && rules.mode === "list" && !rules.allow_custom && rules.choices.indexOf(unit) < 0) {
        unitError(texts.unit_unknown);
        return;
      }
      pick.saved = { id: choice.place.id, unit: unit };
    } else {
      pick.pin = { lat: choice.lat, lng: choice.lng, address: $("address").value.trim() };
    }
    tg.sendData(JSON.stringify(pick));
  }

  // --- search ------------------------------------------------------------------------------

  function search(event) {
    event.preventDefault();
    var query = $("search").value.trim();
    var results = $("results");
    results.textContent = "";
    if (query.length < 3) {
      return;
    }
    api("search?q=" + encodeURIComponent(query)).then(function (reply) {
      if (!reply.ok) {
        status(reply.body.error, true);
        return;
      }
      if (!reply.body.places.length) {
        status(texts.no_results, true);
        return;
      }
      status("");
      reply.body.places.forEach(function (place) {
        results.appendChild(choiceItem(place.address, "", function () {
          choosePin(place.lat, place.lng, place.address);
        }));
      });
    });
  }

  function choiceItem(label, detail, onChoose) {
    var item = document.createElement("li");
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    if (detail) {
      var small = document.createElement("small");
      small.textContent = detail;
      button.appendChild(small);
    }
    button.addEventListener("click", onChoose);
    item.appendChild(button);
    return item;
  }

  // --- the map -----------------------------------------------------------------------------

  function mapFailed() {
    if (map) {
      map.remove();
      map = null;
    }
    $("map").hidden = true;
    $("map-failed").hidden = false;
    $("map-failed").textContent = texts.map_failed;
    $("pin-hint").hidden = true;
    document.body.classList.add("map-failed");
  }

  function startMap() {
    if (typeof L === "undefined") {
      mapFailed();
      return;
    }
    var body = document.body;
    map = L.map("map", { zoomControl: true });
    var tiles = L.tileLayer(body.dataset.tiles, {
      attribution: body.dataset.attribution, maxZoom: 19,
    });
    var loaded = false;
    tiles.on("tileload", function () { loaded = true; document.body.classList.add("tiles-loaded"); });
    tiles.on("tileerror", function () { if (!loaded) { mapFailed(); } });
    tiles.addTo(map);
    var bounds = [];
    question.coverage.circles.forEach(function (circle) {
      L.circle([circle.lat, circle.lng], {
        radius: circle.radius_m, color: "#2481cc", weight: 1, fillOpacity: 0.08,
        interactive: false,
      }).addTo(map);
      bounds.push([circle.lat, circle.lng]);
    });
    question.saved.forEach(function (place) {
      var marker = L.marker([place.lat, place.lng], { title: place.name, alt: place.name });
      marker.on("click", function () { chooseSaved(place); });
      marker.addTo(map);
      bounds.push([place.lat, place.lng]);
    });
    pin = L.marker([0, 0], {
      draggable: true, autoPan: true, title: "pin", alt: "pin",
      icon: new L.Icon.Default({ className: "pin-icon" }),
    });
    pin.on("dragend", function () {
      var at = pin.getLatLng();
      choosePin(at.lat, at.lng);
    });
    map.on("click", function (event) { choosePin(event.latlng.lat, event.latlng.lng); });
    if (bounds.length) {
      map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    } else {
      map.setView([0, 0], 2);
    }
    // The pin waits in the middle: dragging it (or tapping the map) chooses the place.
    pin.setLatLng(map.getCenter()).addTo(map);
  }

  function showQuestion() {
    $("saved-section").hidden = question.saved.length === 0;
    $("search-section").hidden = !question.search;
    question.saved.forEach(function (place) {
      var item = choiceItem(place.name, place.address, function () { chooseSaved(place); });
      savedButtons[place.id] = item.querySelector("button");
      savedButtons[place.id].setAttribute("aria-pressed", "false");
      $("saved-list").appendChild(item);
    });
    startMap();
    var current = question.current;
    if (current && current.kind === "saved") {
      var place = question.saved.filter(function (row) { return row.id === current.saved_id; })[0];
      if (place) {
        chooseSaved(place, current.unit || "");
      }
    } else if (current && current.kind === "pin") {
      choosePin(current.lat, current.lng, current.address || "");
    }
  }

  function showTexts() {
    document.documentElement.lang = (tg.initDataUnsafe.user || {}).language_code || "en";
    // What the page picks, named as the chat names its question ("Drop-off place").
    document.title = question.title || texts.title;
    $("title").textContent = question.title || texts.title;
    $("saved-heading").textContent = texts.saved_heading;
    $("search-label").textContent = texts.search_label;
    $("search-button").textContent = texts.search_button;
    $("pin-hint").textContent = texts.pin_hint;
    $("address-label").textContent = texts.address_label;
    $("my-location").textContent = texts.my_location;
    $("confirm").textContent = texts.confirm;
    tg.MainButton.setText(texts.confirm);
  }

  function myLocation() {
    navigator.geolocation.getCurrentPosition(function (position) {
      choosePin(position.coords.latitude, position.coords.longitude);
    });
  }

  applyTheme();
  if (tg.onEvent) {
    tg.onEvent("themeChanged", applyTheme);
  }
  tg.ready();
  tg.expand();
  $("search-form").addEventListener("submit", search);
  $("unit-select").addEventListener("change", unitChanged);
  $("unit-text").addEventListener("input", unitChanged);
  $("confirm").addEventListener("click", confirm);
  $("my-location").addEventListener("click", myLocation);
  $("my-location").hidden = !("geolocation" in navigator);
  tg.MainButton.onClick(confirm);
  api("question").then(function (reply) {
    texts = reply.body.texts || {};
    if (!reply.ok) {
      $("map").hidden = true;
      $("pin-section").hidden = true;
      $("confirm").hidden = true;
      status(reply.body.error, true);
      return;
    }
    question = reply.body.question;
    showTexts();
    showQuestion();
    tg.MainButton.show();
    refreshMainButton();
  }, function () {
    // The bot could not be reached (errors of the page itself are not caught here): nothing to pick from; the chat's own buttons still work.
    $("map").hidden = true;
    $("pin-section").hidden = true;
    $("confirm").hidden = true;
    status("⚠", true);
  });
})();
