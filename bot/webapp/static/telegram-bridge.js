/*
 * The part of Telegram's Mini App interface this page uses, without loading Telegram's own
 * script from telegram.org (the page loads no third-party script). It follows Telegram's
 * documented events (https://core.telegram.org/api/web-events): the launch parameters are in
 * the URL's fragment (tgWebAppData, tgWebAppThemeParams), the page posts events to the client
 * (a native web view's proxy, or the parent window in Telegram Web), and the client calls
 * back through window.Telegram.WebView.receiveEvent or a message.
 *
 * When window.Telegram.WebApp already exists (Telegram's script, or a test's stand-in), it is
 * used as it is.
 */
(function () {
  "use strict";
  if (window.Telegram && window.Telegram.WebApp) {
    return;
  }
  var fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  var initData = fragment.get("tgWebAppData") || "";
  var themeParams = {};
  try {
    themeParams = JSON.parse(fragment.get("tgWebAppThemeParams") || "{}");
  } catch (e) {
    themeParams = {};
  }
  var unsafe = {};
  new URLSearchParams(initData).forEach(function (value, key) {
    try {
      unsafe[key] = key === "user" ? JSON.parse(value) : value;
    } catch (e) {
      unsafe[key] = value;
    }
  });
  var listeners = {};

  function postEvent(type, data) {
    var body = data === undefined ? "" : JSON.stringify(data);
    if (window.TelegramWebviewProxy !== undefined) {
      window.TelegramWebviewProxy.postEvent(type, body);
    } else if (window.external && "notify" in window.external) {
      window.external.notify(JSON.stringify({ eventType: type, eventData: data }));
    } else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), "*");
    }
  }

  function emit(type, data) {
    (listeners[type] || []).forEach(function (callback) {
      callback(data);
    });
  }

  function receiveEvent(type, data) {
    if (type === "main_button_pressed") {
      emit("mainButtonClicked");
    } else if (type === "theme_changed" && data && data.theme_params) {
      themeParams = data.theme_params;
      WebApp.themeParams = themeParams;
      emit("themeChanged");
    }
  }

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) {
      return;
    }
    try {
      var message = JSON.parse(event.data);
      receiveEvent(message.eventType, message.eventData);
    } catch (e) {
      /* not a Telegram message */
    }
  });

  var mainButton = { text: "", isVisible: false, isActive: true };
  function drawMainButton() {
    postEvent("web_app_setup_main_button", {
      is_visible: mainButton.isVisible,
      is_active: mainButton.isActive,
      text: mainButton.text,
      color: themeParams.button_color,
      text_color: themeParams.button_text_color,
    });
  }
  mainButton.setText = function (text) { mainButton.text = text; drawMainButton(); return mainButton; };
  mainButton.show = function () { mainButton.isVisible = true; drawMainButton(); return mainButton; };
  mainButton.hide = function () { mainButton.isVisible = false; drawMainButton(); return mainButton; };
  mainButton.enable = function () { mainButton.isActive = true; drawMainButton(); return mainButton; };
  mainButton.disable = function () { mainButton.isActive = false; drawMainButton(); return mainButton; };
  mainButton.onClick = function (callback) { WebApp.onEvent("mainButtonClicked", callback); return mainButton; };

  var WebApp = {
    initData: initData,
    initDataUnsafe: unsafe,
    themeParams: themeParams,
    colorScheme: "light",
    MainButton: mainButton,
    ready: function () { postEvent("web_app_ready"); },
    expand: function () { postEvent("web_app_expand"); },
    close: function () { postEvent("web_app_close"); },
    sendData: function (data) { postEvent("web_app_data_send", { data: data }); },
    onEvent: function (type, callback) { (listeners[type] = listeners[type] || []).push(callback); },
  };
  window.Telegram = window.Telegram || {};
  window.Telegram.WebApp = WebApp;
  window.Telegram.WebView = { receiveEvent: receiveEvent };
})();
