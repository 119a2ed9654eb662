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
  var dropped = false;

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

  /* After an interruption, changes may have been missed: draw the rows again from the page. */
  function redraw() {
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
      .catch(function () {});
  }

  var source = new EventSource(table.getAttribute("data-live") + window.location.search);
  source.addEventListener("open", function () {
    state(true);
    if (dropped) {
      dropped = false;
      redraw();
    }
  });
  source.addEventListener("error", function () {
    dropped = true;
    state(false);
  });
  source.addEventListener("row", function (event) {
    var data = JSON.parse(event.data);
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
  source.addEventListener("gone", function (event) {
    var old = rowOf(JSON.parse(event.data).id);
    if (old) {
      body.removeChild(old);
      shown();
    }
  });
  source.addEventListener("signed-out", function () {
    source.close();
    state(false);
  });
})();
