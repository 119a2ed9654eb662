/*
 * The console's maps: a small enhancement over pages that read without it.
 *
 * Loaded after the pinned Leaflet the Mini App vendors (served at /console/leaflet/), by a
 * page that has a map to draw. It reads only data attributes; it adds no inline style and no
 * inline script (the console's CSP allows neither).
 *
 * The contract, for any page of the console:
 *
 *   <div class="console-map" hidden
 *        data-tiles="https://tile.example/{z}/{x}/{y}.png"   the tile URL template
 *        data-attribution="© ..."                            the tiles' attribution
 *        data-label="Map of ..."                             the map's accessible name
 *        data-places='[{"lat": 6.5, "lng": 3.37, "label": "Pickup"}, ...]'>   optional
 *   </div>
 *
 *   - Every div.console-map with data-tiles is drawn: the div is shown (it is `hidden` until
 *     then, so without this script, without Leaflet or with tiles that never load, the page
 *     shows no empty box: it keeps the coordinates it prints in words).
 *   - data-places, a JSON list of {lat, lng, label, kind}: a marker for each (its label as
 *     the marker's title and alt text), all fitted in view; kind "dropoff" (optional) fades
 *     the marker, a destination drawn beside the riders' own markers.
 *   - data-pick-lat="NAME" data-pick-lng="NAME" on a div.console-map inside a <form>: a click
 *     on the map sets that form's inputs named NAME to the point's latitude and longitude
 *     (6 decimals), moves one "picked" marker there and fires "input" and "change" events on
 *     both inputs. When the inputs already hold numbers, the marker starts there. The form
 *     still posts plain inputs: a person without the map types the numbers.
 *
 * Each drawn map gets the class "console-map-drawn"; a map whose first tile failed is taken
 * away again (hidden, class "console-map-failed").
 */
(function () {
  "use strict";

  var PICK_ZOOM = 15;
  var FIT_MAX_ZOOM = 16;
  var DROPOFF_OPACITY = 0.55;

  function places(element) {
    var raw = element.getAttribute("data-places");
    if (!raw) {
      return [];
    }
    try {
      var parsed = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed.filter(isPlace) : [];
    } catch (error) {
      return [];
    }
  }

  function isPlace(place) {
    return place && isFinite(place.lat) && isFinite(place.lng);
  }

  function pickInputs(element) {
    var form = element.closest("form");
    var lat = element.getAttribute("data-pick-lat");
    var lng = element.getAttribute("data-pick-lng");
    if (!form || !lat || !lng || !form.elements[lat] || !form.elements[lng]) {
      return null;
    }
    return { lat: form.elements[lat], lng: form.elements[lng] };
  }

  function setValue(input, value) {
    input.value = value.toFixed(6);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function draw(element) {
    var tilesUrl = element.getAttribute("data-tiles");
    if (typeof L === "undefined" || !tilesUrl) {
      return;
    }
    element.hidden = false;
    element.setAttribute("role", "region");
    if (element.getAttribute("data-label")) {
      element.setAttribute("aria-label", element.getAttribute("data-label"));
    }
    var map = L.map(element, { zoomControl: true });
    var tiles = L.tileLayer(tilesUrl, {
      attribution: element.getAttribute("data-attribution") || "",
      maxZoom: 19,
    });
    var loaded = false;
    tiles.on("tileload", function () {
      loaded = true;
    });
    tiles.on("tileerror", function () {
      if (!loaded) {
        map.remove();
        element.hidden = true;
        element.classList.remove("console-map-drawn");
        element.classList.add("console-map-failed");
      }
    });
    tiles.addTo(map);
    element.classList.add("console-map-drawn");

    var bounds = [];
    places(element).forEach(function (place) {
      var label = String(place.label || "");
      var faded = place.kind === "dropoff";
      L.marker([place.lat, place.lng], {
        title: label,
        alt: label,
        opacity: faded ? DROPOFF_OPACITY : 1,
      }).addTo(map);
      bounds.push([place.lat, place.lng]);
    });

    var inputs = pickInputs(element);
    var picked = null;
    if (inputs) {
      var lat = parseFloat(inputs.lat.value);
      var lng = parseFloat(inputs.lng.value);
      if (isFinite(lat) && isFinite(lng)) {
        picked = L.marker([lat, lng], { title: "picked", alt: "picked" }).addTo(map);
        bounds.push([lat, lng]);
      }
      map.on("click", function (event) {
        var at = event.latlng;
        setValue(inputs.lat, at.lat);
        setValue(inputs.lng, at.lng);
        if (picked) {
          picked.setLatLng(at);
        } else {
          picked = L.marker(at, { title: "picked", alt: "picked" }).addTo(map);
        }
      });
    }

    if (bounds.length > 1) {
      map.fitBounds(bounds, { padding: [24, 24], maxZoom: FIT_MAX_ZOOM });
    } else if (bounds.length === 1) {
      map.setView(bounds[0], PICK_ZOOM);
    } else {
      map.setView([0, 0], 2);
    }
  }

  function start() {
    var maps = document.querySelectorAll("div.console-map[data-tiles]");
    Array.prototype.forEach.call(maps, draw);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
