/* The console's one script: the deliveries list updates itself (server-sent events from
   /console/deliveries/live, the rows drawn by the server). Without it the page is the same
   list, read and filtered by plain forms. No inline script: the CSP allows this file only. */
"use strict";

(function () {
  var table = document.querySelector("table.deliveries[data-live]");
  if (!table || !window.EventSource || !window.DOMParser) {
    return;
  }
  var body = table.tBodies[0];
  var empty = document.getElementById("no-deliveries");
  var on = document.getElementById("live-on");
  var lost = document.getElementById("live-lost");
  var parser = new DOMParser();
  /* The rows are read again when the stream opens: what changed between the page being drawn
     and its stream opening (or while the stream was down) would be missed otherwise. Events
     that come meanwhile are kept and applied on the rows read. */
  var stale = true;
  var held = null;

  function rowOf(id) {
    var rows = body.rows;
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].getAttribute("data-delivery") === id) {
        return rows[i];
      }
    }
    return null;
  }

  function created(row) {
    var time = row.querySelector("time");
    return time ? time.getAttribute("datetime") : "";
  }

  /* A row drawn by the server, as a node (parsed inside a table so the <tr> is kept). */
  function parsed(html) {
    var doc = parser.parseFromString("<table><tbody>" + html + "</tbody></table>", "text/html");
    var row = doc.querySelector("tr[data-delivery]");
    return row ? document.importNode(row, true) : null;
  }

  /* Newest first, as the server orders the list: before the first row created earlier. */
  function place(row) {
    var when = created(row);
    var rows = body.rows;
    for (var i = 0; i < rows.length; i++) {
      if (created(rows[i]) < when) {
        body.insertBefore(row, rows[i]);
        return;
      }
    }
    body.appendChild(row);
  }

  function shown() {
    var some = body.rows.length > 0;
    table.hidden = !some;
    if (empty) {
      empty.hidden = some;
    }
  }

  function state(live) {
    if (on) {
      on.hidden = !live;
    }
    if (lost) {
      lost.hidden = live;
    }
  }

  function redraw() {
    held = [];
    fetch(window.location.href, { credentials: "same-origin" })
      .then(function (answer) {
        return answer.ok ? answer.text() : null;
      })
      .then(function (html) {
        if (html === null) {
          return;
        }
        var doc = parser.parseFromString(html, "text/html");
        var fresh = doc.querySelector("table.deliveries tbody");
        if (fresh) {
          body.replaceChildren.apply(body, Array.prototype.map.call(fresh.rows, function (row) {
            return document.importNode(row, true);
          }));
          shown();
        }
      })
      .catch(function () {})
      .then(function () {
        var waiting = held;
        held = null;
        waiting.forEach(function (apply) {
          apply();
        });
      });
  }

  /* Apply a change now, or once the rows being read again are in. */
  function when(apply) {
    if (held) {
      held.push(apply);
    } else {
      apply();
    }
  }

  var source = new EventSource(table.getAttribute("data-live") + window.location.search);
  source.addEventListener("open", function () {
    state(true);
    if (stale) {
      stale = false;
      redraw();
    }
  });
  source.addEventListener("error", function () {
    stale = true;
    state(false);
  });
  source.addEventListener("row", function (event) {
    var data = JSON.parse(event.data);
    when(function () {
      var row = parsed(data.html);
      if (!row) {
        return;
      }
      var old = rowOf(data.id);
      if (old) {
        body.replaceChild(row, old);
      } else {
        place(row);
      }
      row.classList.add("changed");
      shown();
    });
  });
  source.addEventListener("gone", function (event) {
    var id = JSON.parse(event.data).id;
    when(function () {
      var old = rowOf(id);
      if (old) {
        body.removeChild(old);
        shown();
      }
    });
  });
  source.addEventListener("signed-out", function () {
    source.close();
    state(false);
  });
})();
