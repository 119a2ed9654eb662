"""The source catalogue: every sentence a customer or an operator reads, in English, by id.

Ids are ``<topic>.<name>`` and never change once shipped (a business's ``[texts]`` overrides
name them); placeholders are ``{named}`` (``str.format``) and are part of a message's contract:
a translation or an override uses exactly the same ones. ``[[tap:...]]`` and ``[[way:...]]``
marks are said by each channel its way (``taps``). Money, numbers and days arrive already
formatted for the locale.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    # --- how a channel says "choose" (taps) ---------------------------------------------------
    "taps.buttons.verb": "tap",
    "taps.buttons.any_option": "one of the options",
    "taps.buttons.any_command": "a button",
    "taps.keyboard.verb": "type",
    "taps.keyboard.any_option": "an option's number or name",
    "taps.keyboard.any_command": "a command",
    # how an agent channel (the JSON API, the MCP server) is told to choose
    "taps.agent.verb": "answer with",
    "taps.agent.any_option": "one of the options",
    "taps.agent.any_command": "a command",
    # how each channel's customer gives package photos, after "Please" ([[way:photos]])
    "taps.buttons.way.photos": "send them here as pictures",
    "taps.keyboard.way.photos": "type the paths of the photo files",
    "taps.api.way.photos": (
        "send the pictures themselves (POST each to the conversation's /photos route), or "
        "links to them on a website the business accepts"
    ),
    "taps.mcp.way.photos": "send links to them on a website the business accepts",
    "command.back": "Back",
    "command.skip": "Skip",
    "command.done": "Done",
    "command.help": "Help",
    "command.cancel": "Cancel",
    "command.edit": "Change",
    # --- the engine, around any flow's questions (dialogue) -----------------------------------
    "dialogue.service_down": (
        "I can't reach the delivery service right now. Please try again in a moment; "
        "nothing you told me is lost."
    ),
    "dialogue.closed": "This conversation has ended. Start a new order whenever you like.",
    "dialogue.restarted": (
        "Sorry: this order form changed since your last message, so we have to start again "
        "from the beginning."
    ),
    "dialogue.flow_gone": "Sorry: this kind of order is no longer available here.",
    "dialogue.no_warehouse_now": (
        "Sorry: the business no longer takes packages at a warehouse, so a rider will pick "
        "yours up instead. Everything else you told me is kept."
    ),
    "dialogue.stale": (
        "That answer was for an earlier question, so I left it out. Here is where we are:"
    ),
    "dialogue.cancelled": "Cancelled. Nothing was ordered.",
    "dialogue.cancel_question": "Cancel this order? The answers you gave so far will be lost.",
    "dialogue.cancel_yes": "Yes, cancel it",
    "dialogue.cancel_no": "No, go on",
    "dialogue.new_order_question": (
        "Start a new order? The answers you gave for this one will be lost."
    ),
    "dialogue.new_order_yes": "Yes, start a new one",
    "dialogue.same_place_as_last": "Same as last time: {place}",
    "dialogue.first_question": "This is the first question; there is nothing to go back to.",
    "dialogue.edit_from_summary": (
        "You can change any answer from the summary at the end. To go to the previous "
        "question, [[tap:!back]]."
    ),
    "dialogue.stuck": "Having trouble? [[Tap:!help]] for tips, or [[tap:!cancel]] to stop.",
    "dialogue.no_skip": "This one is needed; it can't be skipped.",
    "dialogue.pick_an_option": "Please [[tap:*]].",
    "dialogue.commands": "You can always say Back (previous question), Cancel (stop) or Help.",
    "dialogue.wrong_kind": "Please {ways}.",
    "dialogue.ways_joiner": ", or ",
    "dialogue.way.choice": "[[tap:*]]",
    "dialogue.way.text": "type your answer",
    "dialogue.way.contact": "share a contact",
    "dialogue.way.location": "share a location",
    "dialogue.way.photos": "send photos",
    "dialogue.way.command": "[[tap:!]]",
    "dialogue.help.choice": "[[Tap:*]], or type its name.",
    "dialogue.help.text": "Type your answer as a message.",
    "dialogue.help.phone": "Type a phone number, or share a contact.",
    "dialogue.help.contact": (
        "Type the name, or share a contact to give the name and phone at once."
    ),
    "dialogue.help.place": (
        "Share a location pin, or type the street address: I will look it up and show you "
        "what I found before using it. Saved places, when there are any, are the options."
    ),
    "dialogue.help.photos": "Send the photos, one by one or together: sending them is the answer.",
    "dialogue.help.confirm": (
        "Check the details. Confirm to send the order, or pick what to change."
    ),
    "dialogue.address_not_found_with_area": (
        "I couldn't find “{typed}”. Please check the spelling or name a landmark near it, "
        "or share a location pin."
    ),
    "dialogue.address_not_found": (
        "I couldn't find “{typed}”. Try adding the area or city, or share a location pin."
    ),
    "dialogue.address_again_with_area": (
        "Okay. Type the address again with more detail (a house number or a landmark near "
        "it), or share a location pin."
    ),
    "dialogue.address_again": (
        "Okay. Type the address again with the area or city, or share a location pin."
    ),
    "dialogue.keep_label": "Keep: {answer}",
    "dialogue.empty_answer": "That answer was empty: please answer the question.",
    "dialogue.no_longer_offered": (
        "{title}: your choice is no longer offered by the business; please choose again."
    ),
    "dialogue.can_change": "You can change: {titles}.",
    "dialogue.list_joiner": ", ",
    "dialogue.refused_place": (
        "The delivery service said that place is outside the area this business covers. "
        "Please choose another place."
    ),
    "dialogue.outside_area": (
        "That place is outside the area this business covers (about {radius_km} km around "
        "its base). Please choose a place nearer, or share another pin."
    ),
    "dialogue.nothing_to_repeat": (
        "You haven't ordered anything here yet, so there is nothing to repeat."
    ),
    "dialogue.cannot_repeat": (
        "Sorry: your last order was made with an order form that has changed since, so it "
        "can't be filled in again. Here is a new order instead."
    ),
    "dialogue.no_such_flow": "There is no order form called {name}. These are: {names}.",
    "dialogue.repeating": (
        "Your last order ({label}) is filled in again: I'll ask only what can't be reused, "
        "and you can change anything at the summary."
    ),
    "dialogue.not_reused": "{titles}: not kept between orders, so you'll be asked again.",
    "dialogue.try_again": "Try again",
    "dialogue.no_payment_method_alert": (
        "Customers can't order: no payment method is switched on for deliveries. Turn on cash "
        "on delivery or online checkout in the dashboard (Settings, Delivery: payment "
        "collection, paymentCollection in the capabilities). Orders in progress are kept and "
        "go on once one is on."
    ),
    "dialogue.order_held_kept": (
        "Sorry, this business can't take payment for deliveries right now, so your order "
        "is kept here until it can: come back later and tap Try again to carry on."
    ),
    "dialogue.order_held": (
        "Sorry, this business can't take payment for deliveries right now, so orders can't "
        "be placed yet: please come back later and tap Try again."
    ),
    "dialogue.image_host_alert": (
        "The delivery service refused the package photos (image_host_rejected). The bot's "
        "media host must be on the image-host allowlist in the dashboard (Settings, API & "
        "Webhooks), and the photos must be reachable over https."
    ),
    "dialogue.other_refusal_alert": (
        "The delivery service refused an order for a reason only the business can fix "
        "(the API key, its scopes or billing)."
    ),
    "dialogue.other_refusal_alert_said": (
        "The delivery service refused an order for a reason only the business can fix "
        "(the API key, its scopes or billing): {said}"
    ),
    "dialogue.refused_answers": (
        "The delivery service could not accept some of your answers: {titles}. "
        "Please give them again."
    ),
    "dialogue.refused_order": (
        "The delivery service could not accept this order as it is. Nothing was "
        "created; please check the details and send it again."
    ),
    "dialogue.refused_service": "Sorry, the business no longer offers this service here.",
    "dialogue.refused_payment": (
        "That payment method can't be used for this order any more. Please choose again."
    ),
    "dialogue.refused_places": (
        "The delivery service does not cover one of these places: {titles}. "
        "Please give the places again."
    ),
    "dialogue.refused_a_place": (
        "The delivery service does not cover one of these places. Please give the places again."
    ),
    "dialogue.refused_photos": (
        "The delivery service could not accept the photos. This is a setting the "
        "business must fix; they have been told. Your order is kept here."
    ),
    "dialogue.refused_photo_link": (
        "The delivery service could not fetch the photos from the links given: the business "
        "does not take photos from that website. Your other answers are kept. "
        "Please [[way:photos]]."
    ),
    "dialogue.refused_photos_expired": (
        "The photos of this order are no longer kept: photos are kept only for a while, and "
        "the order waited longer than that. Your other answers are kept. "
        "Please [[way:photos]]."
    ),
    "dialogue.busy_wait": (
        "The delivery service is busy. Please wait about {seconds}, then send it again."
    ),
    "dialogue.busy": "The delivery service is busy. Please wait a moment, then send it again.",
    "dialogue.one_second": "1 second",
    "dialogue.seconds": "{count} seconds",
    "dialogue.one_minute": "a minute",
    "dialogue.minutes": "{count} minutes",
    "dialogue.create_waiting": (
        "Many orders are going out right now, so yours goes in about {wait}. "
        "Please stay here: I'll answer as soon as it is sent."
    ),
    "dialogue.refused_other": (
        "The delivery service refused this order for a reason only the business can "
        "fix; they have been told. Nothing was created."
    ),
    "dialogue.created": "Done! Your order reference is {ref}.",
    "dialogue.created.awaiting_price": (
        "Your request is in. The team will set the delivery fee and approve it; "
        "you will get a message as soon as it is priced."
    ),
    "dialogue.created.pending": "Your delivery is booked and waiting for a rider to be assigned.",
    "dialogue.created.picked_up": "The rider has already picked up the package.",
    "dialogue.created.in_transit": "The package is on its way.",
    "dialogue.created.delivered": "The package has been delivered.",
    "dialogue.created.cancelled": "This delivery was cancelled.",
    "dialogue.created.other": "Status: {status}.",
    "dialogue.created.rider_named": (
        "{rider} has already been assigned and will head to the pickup soon."
    ),
    "dialogue.created.rider": "A rider has already been assigned and will head to the pickup soon.",
    "dialogue.checking": (
        "I sent your order, but the delivery service's answer did not reach me, so I can't "
        "tell yet whether it went through. I'm checking and will tell you here as soon as I "
        "know; please don't order it again meanwhile."
    ),
    "dialogue.duplicate_held": (
        "You sent an order with these same details a little while ago and I'm still checking "
        "whether it went through, so it may already exist. Wait for my message about it, or "
        "send this one again to place a second order."
    ),
    "dialogue.not_placed": (
        "About the order I was checking: the delivery service did not accept it, so it was "
        "not placed and nothing was created. You can start a new order whenever you like."
    ),
    "dialogue.still_unknown": (
        "I still can't tell whether your order went through: the delivery service has not "
        "given a clear answer. The business has been told and will check it for you; please "
        "don't order it again until they reply."
    ),
    "dialogue.went_through": "Good news: the order I was checking went through.",
    "dialogue.still_unknown_alert": (
        "An order could not be confirmed after {attempts} attempts: the delivery service gave "
        "no definite answer to its create (idempotency key {key}, chat {chat_id}, {package}, "
        "{place}). Check the dashboard for it and tell the customer; the bot stopped retrying."
    ),
    # --- a delivery in plain words (deliveries_texts) -----------------------------------------
    "status.awaiting_price": "waiting for its price",
    "status.pending": "waiting for a rider",
    "status.matched": "rider assigned",
    "status.picked_up": "picked up",
    "status.in_transit": "in transit",
    "status.delivered": "delivered",
    "status.cancelled": "cancelled",
    "status.paid": "paid",
    "status.unpaid": "unpaid",
    "status.unknown": "unknown",
    "payment.paid": "paid",
    "payment.unpaid": "not paid yet",
    "payment.pending": "payment pending",
    "payment.failed": "payment failed",
    "payment.refunded": "refunded",
    "vehicle.motorbike": "motorbike",
    "vehicle.bicycle": "bicycle",
    "vehicle.car": "car",
    "vehicle.van": "van",
    "vehicle.truck": "truck",
    "vehicle.tricycle": "tricycle",
    "vehicle.walking": "on foot",
    "delivery.fee_set": "The delivery fee is {amount}.",
    "delivery.paid_amount": "We have received your payment of {amount}. Thank you!",
    "delivery.paid": "We have received your payment. Thank you!",
    "delivery.status.awaiting_price": (
        "Your request is waiting for the team to set the delivery fee."
    ),
    "delivery.status.pending": "Your delivery is booked and waiting for a rider.",
    "delivery.status.matched": "{rider} is assigned and heading to pickup.",
    "delivery.status.picked_up": "The rider has picked up your package.",
    "delivery.status.in_transit": "Your package is on its way to the drop-off.",
    "delivery.status.delivered": "Your package has been delivered.",
    "delivery.status.cancelled": "Your delivery was cancelled.",
    "delivery.status.cancelled_reason": "Your delivery was cancelled. Reason: {reason}",
    "delivery.status.other": "Your delivery's status is now: {status}.",
    "delivery.a_rider": "A rider",
    "delivery.a_rider_with": "A rider ({details})",
    "delivery.heading": "Delivery {ref}",
    # --- the rider on the map ([tracking]) -------------------------------------------------
    # {rider} is the rider's first name, or tracking.your_rider; {ref} the delivery's short ref.
    "tracking.your_rider": "Your rider",
    "tracking.to_pickup": "{rider} is on the way to pick up {ref}.",
    "tracking.to_dropoff": "{rider} is bringing {ref} to you.",
    "tracking.eta": "Arrival in about {minutes} min: an estimate from the distance, not a promise.",
    "tracking.eta_soon": "Arrival in a few minutes: an estimate from the distance.",
    "tracking.unavailable": "{rider}'s position is not available right now.",
    "tracking.map_link": "On the map: {url}",
    # --- the customer's data rights ("my data", "forget me") --------------------------------
    "privacy.export_intro": (
        "Here is everything this bot keeps about you, as one file you can keep or read."
    ),
    "privacy.export_nothing": "This bot keeps nothing about you.",
    "privacy.forget_question": (
        "This erases what the bot keeps about you: your remembered details, places and phone "
        "numbers, your unfinished orders, conversations and photos. Your past deliveries stay "
        "in the business's books without your name, phone numbers or addresses. Erase it all?"
    ),
    "privacy.forget_yes": "Erase my data",
    "privacy.forget_no": "Keep it",
    "privacy.forget_kept": "Nothing was erased.",
    "privacy.forget_done": "Done: what this bot kept about you is erased.",
    "privacy.forget_books": (
        "The business keeps {count} past deliveries for its books, without your name, phone "
        "numbers or addresses."
    ),
    "privacy.forget_books_one": (
        "The business keeps your past delivery for its books, without your name, phone "
        "numbers or addresses."
    ),
    "privacy.forget_open": (
        "Your delivery {refs} is still on its way: it is finished first, and what it needs is "
        "erased as soon as it ends."
    ),
    "delivery.tracking": "Track it here: {url}",
    "delivery.note": "• {note}",
    "delivery.note_tracking_sent": "The bot has sent the customer the tracking link.",
    "delivery.note_code_handled": (
        "The bot gives the drop-off code to the receiver only: nobody else needs to send it."
    ),
    "delivery.otp_for_receiver": (
        "Your drop-off code for delivery {ref} is {code}. "
        "Give it to the rider only once the package is in your hands."
    ),
    "delivery.otp_link_for_customer": (
        "The drop-off code for delivery {ref} is ready. Only the receiver may see it, so "
        "please forward this link to them:\n{link}\n"
        "They open it and share their own phone number to get the code."
    ),
    "delivery.otp_link_for_self": (
        "The drop-off code for delivery {ref} is ready. It goes only to the receiver's phone, "
        "which is yours: open this link and share your own contact to get it:\n{link}"
    ),
    "delivery.otp_waiting_for_operators": (
        "The drop-off code for delivery {ref} is waiting for the receiver to verify their "
        "phone number."
    ),
    "delivery.otp_setting_off_for_operators": (
        "The service sent the drop-off code for delivery {ref} to the bot, as the dashboard's "
        '"OTP via webhook only" switch does, but the bot\'s [relay] otp_via_webhook setting is '
        "off, so order summaries tell customers the service texts the code to the receiver. "
        "Set otp_via_webhook = true in the bot's configuration and restart it."
    ),
    "delivery.otp_unrelayed_for_operators": (
        "The drop-off code for delivery {ref} arrived, but that delivery was not ordered "
        "through this bot, so the bot did not send the code to anyone."
    ),
    "delivery.operator_digest_more": (
        "…and {count} more updates, left out to keep up with the news, about deliveries "
        "{refs}. /deliveries shows where each delivery stands."
    ),
    "delivery.polled_summary": "Delivery {ref} is now: {status} (seen by polling).",
    # --- the customer desk (desk_texts) -------------------------------------------------------
    "desk.busy": "The delivery service is busy right now. Please try again in a minute.",
    "desk.unreachable": (
        "I couldn't reach the delivery service just now. Please try again in a few minutes."
    ),
    "desk.not_accepted": (
        "The delivery service did not accept that just now. Please try again later; if it "
        "keeps happening, please contact the business."
    ),
    "desk.private_only": (
        "Please ask me in a private chat: your deliveries are not shown in groups."
    ),
    "desk.unknown_delivery": (
        "I can't find a delivery {typed} among yours. {deliveries} lists them."
    ),
    "desk.none_yet": "You have no deliveries yet. Send {new} to order one.",
    "desk.rider": "Rider: {name}",
    "desk.rider_with_vehicle": "Rider: {name} ({vehicle})",
    "desk.rider_assigned": "assigned",
    "desk.fee": "Fee: {amount}",
    "desk.fee_with_payment": "Fee: {amount}, {payment}",
    "desk.fee_not_set": "Fee: not set yet",
    "desk.from": "From: {address}",
    "desk.to": "To: {address}",
    "desk.last_known": "Last known status: {status}.",
    "desk.list_entry": "• {ref}: {status}, ordered {date}",
    "desk.list_title": "Your deliveries:",
    "desk.list_title_paged": "Your deliveries (page {page} of {pages}):",
    "desk.details_hint": "Send {status} {ref} (or any reference above) for details.",
    "desk.next_page": "{deliveries} {page} for the next page",
    "desk.previous_page": "{deliveries} {page} for the previous one",
    "desk.other_pages": "Send {ways}.",
    "desk.or": " or ",
    "desk.not_your_list": "This list belongs to someone else. Send {deliveries} for yours.",
    "desk.stale_list_button": "This button no longer works. Send {deliveries} again.",
    "desk.cancel_usage": (
        "To cancel, send {command}, the delivery and your reason, e.g.\n"
        "{command} 3F2A9C1E I ordered it twice"
    ),
    "desk.bad_reason": (
        "Please give a reason of {low} to {high} characters (yours has {length}).\n\n{usage}"
    ),
    "desk.cancelled": "Delivery {ref} is cancelled.",
    "desk.already_cancelled": "Delivery {ref} is already cancelled.",
    "desk.delivered_not_cancellable": (
        "Delivery {ref} was delivered, so it can no longer be cancelled."
    ),
    "desk.not_cancellable": (
        "Delivery {ref} can no longer be cancelled: the rider already has the package."
    ),
    # --- the receiver's drop-off code hand-off (handoff_texts) --------------------------------
    "handoff.unknown_link": (
        "This drop-off code link is not valid any more: the delivery may be finished, or the "
        "link was copied incompletely. Please ask the sender for a new one."
    ),
    "handoff.already_sent": "The drop-off code for this delivery was already sent to its receiver.",
    "handoff.private_only": (
        "Please open the link in a private chat with me: codes are never sent to groups."
    ),
    "handoff.wrong_phone": (
        "Sorry, your number is not the receiver's number for this delivery, so I can't send "
        "the code to you. If you are the receiver, ask the sender to check the receiver's "
        "number."
    ),
    "handoff.ask_for_contact": (
        "You were sent this link to receive the drop-off code for delivery {ref}.\n"
        "The code may only go to the receiver, so please share your own phone number with "
        "{where}. I use it only to check that it is the receiver's number."
    ),
    "handoff.not_own_contact": (
        "That is someone else's contact. To get the code, share your own number with {where}."
    ),
    "handoff.unreadable_phone": (
        "I couldn't read a phone number from that contact. Please try {where}."
    ),
    # --- money (money_texts) -------------------------------------------------------------------
    "money.fee_fixed": "Delivery fee: {amount}.",
    "money.fee_from": "Delivery fee: from {amount}; the final fee is set by distance.",
    "money.fee_quoted": "Delivery fee: quoted by the team after they review your order.",
    "money.fee_hidden": "Delivery fee: set by the business, not shown here.",
    "money.you_pay": "You pay it {how}.",
    "money.how.cash.before_dispatch": (
        "in cash to the rider at the pickup, before they set off with the package"
    ),
    "money.how.cash.after_delivery": "in cash to the rider once the package is delivered",
    "money.how.cash.off_platform": "in cash, directly to the business (not through this service)",
    "money.how.online.before_dispatch": (
        "online before the rider sets off (the rider may wait until it is paid); the business "
        "will send you how to pay"
    ),
    "money.how.online.after_delivery": (
        "online after the delivery; the business will send you how to pay"
    ),
    "money.how.online.off_platform": (
        "directly to the business, outside this service; they will tell you how to pay"
    ),
    "money.timing.before_dispatch": (
        "The fee is paid before the rider sets off: the rider may wait until it is."
    ),
    "money.timing.after_delivery": "The fee is collected after the delivery.",
    "money.timing.off_platform": "The fee is settled directly with the business.",
    "money.next.cash.before_dispatch": (
        "Please have {it} ready in cash for the rider at the pickup: they set off once it is paid."
    ),
    "money.next.cash.after_delivery": (
        "{It} is paid in cash to the rider once the package is delivered."
    ),
    "money.next.cash.off_platform": "{It} is paid in cash, directly to the business.",
    "money.next.online.before_dispatch": (
        "Next, pay {it} online before the rider sets off: the business will send you how to "
        "pay, and the rider may wait until it is paid."
    ),
    "money.next.online.after_delivery": (
        "After the delivery, pay {it} online: the business will send you how to pay."
    ),
    "money.next.online.off_platform": (
        "The business will tell you how to pay {it} directly to them."
    ),
    "money.online_how": "How to pay: {how}",
    "money.online_link": "Pay here: {link}",
    "money.the_fee": "the delivery fee",
    "money.the_fee_capital": "The delivery fee",
    "money.it": "it",
    "money.it_capital": "It",
    "money.fee_then": "Delivery fee: {amount}. {then}",
    # --- the steps' own re-asks and notes (conversations/steps) --------------------------------
    "steps.none": "none",
    "steps.too_short": "That's too short: please type at least {low} characters.",
    "steps.too_long": "Please keep the {what} under {high} characters (that was {length}).",
    "steps.what.answer": "answer",
    "steps.what.name": "name",
    "steps.what.address": "address",
    "steps.please": "Please {ways}.",
    "steps.way.answer": "type your answer",
    "steps.way.phone": "type the phone number, or share a contact",
    "steps.way.name": "type the name, or share a contact",
    "steps.way.email": "type an email address, or skip",
    "steps.way.amount": "type an amount",
    "steps.way.photos": "send photos",
    "steps.way.choice": "[[tap:*]]",
    "steps.way.confirm": "confirm the order, or pick what to change",
    "steps.phone_example": "{national} or {international}",
    "steps.bad_phone": (
        "That doesn't look like a phone number I can use. Try it like this: {example}."
    ),
    "steps.no_usable_name": "That contact has no usable name. Please type the name.",
    "steps.name_needs_letter": "A name needs at least one letter. Please type the name.",
    "steps.contact_phone_unusable": "I couldn't use the phone number on that contact.",
    "steps.bad_email": "That doesn't look like an email address (like name@example.com).",
    "steps.amount_format": "Please type the amount in {currency}, like {example}.",
    "steps.amount_too_high": "Please type an amount up to {limit}.",
    "steps.one_photo": "1 photo",
    "steps.photos": "{count} photos",
    "steps.photos_first": "Please send at least {photos} first.",
    "steps.photos_unreceived": "Those photos could not be received. Please send them again.",
    "steps.photos_kept_first": "I kept the first {maximum}.",
    "steps.photos_got": "Got {photos}.",
    "steps.photos_more": "Got {photos}. Please send {more} more.",
    "steps.pin_not_real": "That pin is not a real place. Please share the location again.",
    "steps.saved_place_gone": "That saved place is no longer offered. Please pick another.",
    "steps.place_ways": "Please share a location, pick a saved place, or type the address.",
    "steps.no_address_search": (
        "I can't look up typed addresses here. Please share a location pin."
    ),
    "steps.address_search_down": (
        "The address search is not working right now. Please share a location pin."
    ),
    "steps.address_as_message": "Please type the address as a message.",
    "steps.right_place": "Please [[tap:*]]: the right place, or None of these.",
    "steps.give_unit": "Please give the {unit}.",
    "steps.unit_not_listed": "“{typed}” is not on the list. The {unit} must be one of: {units}.",
    # --- the flows' own questions, titles, options and help (flows, steps, rules) ---------
    "rules.kind.pickup_delivery": "Pickup & delivery",
    "rules.kind.errand": "Errand: we buy it for you",
    "rules.errand_mode.at_place": "Buy it at a shop",
    "rules.errand_mode.link": "Buy it from a link",
    "rules.errand_mode.photo": "Buy what's in my photo",
    "rules.payment.cash_on_delivery": "Cash on delivery",
    "rules.payment.online_checkout": "Pay online",
    "rules.payment.cash_at_pickup": "Cash to the rider at pickup",
    "rules.payment.cash_to_business": "Cash, directly to the business",
    "rules.settings_broken": (
        "Sorry, this business can't take orders here right now: its delivery settings need "
        "fixing (no payment method is switched on). Please contact the business directly."
    ),
    "rules.nothing_offered": (
        "Sorry, this business doesn't offer any delivery service here right now. Please contact "
        "the business directly."
    ),
    "rules.not_offered.pickup_delivery": (
        "Sorry, this business doesn't offer pickup & delivery right now."
    ),
    "rules.not_offered.errand": "Sorry, this business doesn't offer errands right now.",
    "rules.hint.approval": "Staff may need to price and approve the order before it goes out.",
    "rules.hint.auto_dispatch": "A nearby rider may be assigned straight away.",
    "rules.hint.otp_you": "The service texts you a drop-off code to give the rider.",
    "rules.hint.otp_receiver": "The service texts the receiver a drop-off code to give the rider.",
    "rules.hint.otp_you_link": (
        "Your drop-off code comes here (you may be asked to share your contact first); give it "
        "to the rider."
    ),
    "rules.hint.otp_receiver_link": (
        "The receiver's drop-off code comes here as a link for you to forward to them; they "
        "give the code to the rider."
    ),
    "rules.hint.no_otp": "No drop-off code: the rider takes a photo as proof of delivery.",
    "rules.hint.radius": "The business delivers within about {km} km.",
    "steps.yes": "Yes",
    "steps.no": "No",
    "steps.help.phone": (
        "Type the number the local way or with the country code, or share a contact."
    ),
    "steps.help.person": (
        "Type the full name, or share a contact to give the name and phone together."
    ),
    "steps.help.photos": (
        "Send the photos all at once (up to {maximum}); an album of several is fine."
    ),
    "steps.help.email": "Type an email address for updates, or skip it.",
    "steps.help.amount": "Type the amount in the business's currency, in numbers (5000 or 5,000).",
    "steps.title.summary": "Summary",
    "steps.summary.confirm": "Confirm and send",
    "steps.summary.retry": "Try sending it again",
    "steps.summary.group.places": "places",
    "steps.summary.group.people": "people",
    "steps.summary.group.package": "package details",
    "steps.summary.group.payment": "payment details",
    "steps.summary.group.other": "other details",
    "steps.summary.group_question": "What would you like to change?",
    "steps.summary.back_to_summary": "Back to the summary",
    "steps.title.size": "Size",
    "steps.size.small": "Small",
    "steps.size.small.detail": "fits in a bag",
    "steps.size.medium": "Medium",
    "steps.size.medium.detail": "a box you can carry",
    "steps.size.large": "Large",
    "steps.size.large.detail": "needs both arms or a carrier",
    "steps.title.photos": "Photos",
    "steps.package_photos": "Please send 1 to {high} photos of the {called}.",
    "steps.title.payment": "Payment",
    "steps.payment.question": "How will the delivery be paid?",
    "steps.payment.single": "Payment: {label}.",
    "steps.title.cash_to_collect": "Cash to collect",
    "steps.payment.no_cash": "No cash to collect",
    "steps.payment.cash_question": (
        "Should the rider collect cash from the receiver for the goods? Type the amount in "
        "{currency}, or {no}."
    ),
    "steps.place.unknown": "I don't know where it is",
    "steps.place.way.pick": "pick one below",
    "steps.place.way.pin": "share a location pin",
    "steps.place.way.type": "type the address",
    "steps.place.way.joiner": ", ",
    "steps.place.way.last": "{first} or {last}",
    "steps.place.question": "{question} Please {ways}.",
    "steps.place.not_known": "not known: the rider will find it",
    "steps.place.pin_address": (
        "What is the address at this pin? Street, building or landmark: it helps the rider."
    ),
    "steps.place.address_title": "{title}: address",
    "steps.place.retype": "None of these: type it again",
    "steps.place.found_one": "I found this place. Is it right?",
    "steps.place.taken": "Found: {address}.",
    "steps.place.pin_named": "The rider gets this address with your pin: {address}.",
    "steps.place.found_several": "Which one is it?",
    "steps.place.found_title": "{title}: found place",
    "steps.unit.or_skip": " (or skip)",
    "steps.unit.type_it": "{unit}? Type it{optional}.",
    "steps.unit.as_typed": "Use “{own}” as typed",
    "steps.unit.whole_list": "Show the whole list",
    "steps.unit.matches": "These match “{typed}”. Pick the {unit}, or type it again{optional}.",
    "steps.unit.title": "{title}: unit",
    "steps.unit.titled": "{title}: {unit}",
    "steps.unit.pick_custom": "Which {unit}? Pick one or type your own{optional}.",
    "steps.unit.pick_listed": "Which {unit}? Pick one or type it{optional}.",
    "steps.unit.examples_joiner": " or ",
    "steps.unit.search_custom": (
        "Which {unit}? Type it (like {like}, or your own), or a part of it to search; or pick "
        "it from the list of {count}{optional}."
    ),
    "steps.unit.search_listed": (
        "Which {unit}? Type it (like {like}), or a part of it to search; or pick it from the "
        "list of {count}{optional}."
    ),
    "steps.unit.range": "{first} to {last}",
    "steps.title.own_name": "Your name",
    "steps.sender.name_question": (
        "What is your name? Add your phone on the same line if you like, or share your contact."
    ),
    "steps.title.own_phone": "Your phone",
    "steps.sender.phone_question": "What is your phone number?",
    "steps.title.own_email": "Your email",
    "steps.sender.email_question": "An email address for updates? (optional)",
    "steps.title.receiver": "Receiver",
    "steps.receiver.name_question": (
        "Who receives the package? Type their name (and their phone on the same line, if you "
        "like), or share their contact."
    ),
    "steps.title.receiver_phone": "Receiver's phone",
    "steps.receiver.phone_question": "The receiver's phone number?",
    "steps.title.pickup_contact": "Pickup contact",
    "steps.pickup_contact.question": "Who will hand the package to the rider?",
    "steps.pickup_contact.me": "Me",
    "steps.pickup_contact.someone_else": "Someone else",
    "steps.title.pickup_contact_name": "Pickup contact name",
    "steps.pickup_contact.name_question": (
        "Who will hand it over? Type their name (and their phone on the same line, if you like), "
        "or share their contact."
    ),
    "steps.title.pickup_contact_phone": "Pickup contact phone",
    "steps.pickup_contact.phone_question": "Their phone number?",
    "flows.entry.title": "New order",
    "flows.entry.title.service": "Service",
    "flows.entry.question": "What would you like to order?",
    "flows.entry.single": "Only one service is available: {label}.",
    "flows.title.pickup_place": "Pickup place",
    "flows.title.dropoff_place": "Drop-off place",
    "flows.size_question": "How big is it?",
    "flows.called.package": "package",
    "flows.called.parcel": "parcel",
    "flows.pickup_delivery.title": "Pickup & delivery",
    "flows.pickup_delivery.mode.pickup": "A rider picks it up from an address",
    "flows.pickup_delivery.mode.warehouse": "I'll drop it at a warehouse",
    "flows.pickup_delivery.title.mode": "How it's picked up",
    "flows.pickup_delivery.mode_question": "How will the rider get the package?",
    "flows.pickup_delivery.mode_single": (
        "The rider will pick the package up from an address you give."
    ),
    "flows.pickup_delivery.title.warehouse": "Warehouse",
    "flows.pickup_delivery.warehouse_question": "Which warehouse will you drop the package at?",
    "flows.pickup_delivery.warehouse_single": "You'll drop the package at {named}.",
    "flows.pickup_delivery.pickup_question": "Where should the rider pick the package up?",
    "flows.pickup_delivery.dropoff_question": "Where should the rider deliver it?",
    "flows.pickup_delivery.title.package": "Package",
    "flows.pickup_delivery.description_question": "What is in the package? A few words are enough.",
    "flows.pickup_delivery.title.fragile": "Fragile",
    "flows.pickup_delivery.fragile_question": "Is it fragile?",
    "flows.pickup_delivery.summary": "Please check your pickup & delivery:",
    "flows.return_parcel.no_warehouse": (
        "Sorry, returns can't be ordered here: the business has no warehouse to return to."
    ),
    "flows.return_parcel.title": "Return a parcel",
    "flows.return_parcel.label": "Return a parcel to us",
    "flows.return_parcel.title.returned_to": "Returned to",
    "flows.return_parcel.returned_to_question": "Where does the parcel go back to?",
    "flows.return_parcel.returned_to_single": "The parcel goes back to {label}.",
    "flows.return_parcel.pickup_question": "Where should the rider collect the parcel?",
    "flows.return_parcel.title.parcel": "Parcel",
    "flows.return_parcel.description_question": (
        "What are you returning? A few words, and an order number if you have one."
    ),
    "flows.return_parcel.summary": "Please check your return:",
    "flows.pharmacy_errand.title": "Pharmacy errand",
    "flows.pharmacy_errand.label": "Medicine from a pharmacy",
    "flows.pharmacy_errand.no_at_place": "Errands bought at a shop are not available right now.",
    "flows.pharmacy_errand.title.medicine": "Medicine",
    "flows.pharmacy_errand.medicine_question": (
        "Which medicine should the rider buy? Its name, strength and how many."
    ),
    "flows.pharmacy_errand.title.prescription": "Prescription",
    "flows.pharmacy_errand.prescription_question": (
        "If it needs a prescription, send a photo of it (up to {high}), or skip."
    ),
    "flows.pharmacy_errand.title.pharmacy": "Pharmacy",
    "flows.pharmacy_errand.pharmacy_question": "Which pharmacy should the rider go to?",
    "flows.pharmacy_errand.dropoff_question": "Where should the rider bring the medicine?",
    "flows.pharmacy_errand.summary": "Please check your pharmacy errand:",
    "flows.errand.title": "Errand",
    "flows.errand.title.mode": "Errand type",
    "flows.errand.mode_question": "What kind of errand?",
    "flows.errand.mode_single": "Errand type: {label}.",
    "flows.errand.title.items": "What to buy",
    "flows.errand.items_question.photo": (
        "What should the rider buy? A few words; you'll send the photo next."
    ),
    "flows.errand.items_question": (
        "What should the rider buy? List the items (quantity, size, colour...)."
    ),
    "flows.errand.photos_question.photo": "Send a photo of what you need (1 to {high} photos).",
    "flows.errand.photos_question": (
        "Any photos that help the rider get the right thing? Up to {high}, or skip."
    ),
    "flows.errand.not_a_link": "That doesn't look like a web link. Please paste the full link.",
    "flows.errand.link_question.curated": (
        "Pick a shop below, or paste a link to what you want bought."
    ),
    "flows.errand.link_question": "Paste the link to what you want bought.",
    "flows.errand.shop_gone": (
        "That shop is no longer offered. Please pick another or paste a link."
    ),
    "flows.errand.link_ways": "Please pick a shop, or paste a link.",
    "flows.errand.title.link": "Shop link",
    "flows.errand.online_order": "Online order: {shop}, rider to find the shop",
    "flows.errand.online_order.curated": "Online order: {shop}",
    "flows.errand.unknown_shop": "Shop location unknown — rider to find: {note}",
    "flows.errand.title.shop": "Shop",
    "flows.errand.shop_question": "Where is the shop?",
    "flows.errand.title.shop_note": "Shop details",
    "flows.errand.shop_note_question": (
        "What do you know about the shop? Its name, the street or the area."
    ),
    "flows.errand.title.shop_phone": "Shop phone",
    "flows.errand.shop_phone_question": "The shop's phone number, if you have it? (optional)",
    "flows.errand.title.budget": "Budget",
    "flows.errand.budget_question": "Your budget for the items, in {currency}? (optional)",
    "flows.errand.title.substitutes": "Substitutes",
    "flows.errand.substitutes_question": (
        "If something isn't available, may the rider buy a close substitute?"
    ),
    "flows.errand.substitutes.yes": "Yes, a close substitute is fine",
    "flows.errand.substitutes.no": "No, only what I asked for",
    "flows.errand.size_question": "Roughly how big will it all be?",
    "flows.errand.dropoff_question": "Where should the rider bring it?",
    "flows.errand.phone_question": "What is your phone number? The rider will call it on arrival.",
    "flows.errand.summary": "Please check your errand:",
    "steps.summary.line": "• {title}: {value}",
    "dialogue.change_step": "Change {what}",
    # --- operator chats (bot/telegram/operators) ----------------------------------------------
    "ops.refused": "Sorry, that command is only for the team's operators.",
    "ops.report.usage": "Usage: /report [7d|24h] [flow]",
    "ops.report.none": "No conversations in the last {period}.",
    "ops.report.title": "Where customers give up, last {period}:",
    "ops.report.flow": "{flow}: {started} started, {created} created",
    "ops.report.step": "  {step}: {abandoned} of {reached} gave up ({share}), median {median}",
    "ops.report.reason": ", re-asked most for {reason}",
    "ops.report.handoffs": "  asked for a person at: {steps}",
    "ops.the_delivery": "The delivery",
    "ops.the_delivery_ref": "Delivery {ref}",
    "ops.fee_required": (
        "{delivery} has no delivery fee yet (it is awaiting a price). Set the fee first."
    ),
    "ops.rider_not_found": (
        "There is no rider {rider} on this fleet. /riders <delivery ref> lists the riders."
    ),
    "ops.that_rider_not_found": (
        "That rider is not on this fleet. /riders <delivery ref> lists the riders."
    ),
    "ops.rider_not_active": (
        "The rider {rider} has not accepted the fleet invite yet, so cannot be assigned."
    ),
    "ops.that_rider_not_active": (
        "That rider has not accepted the fleet invite yet, so cannot be assigned."
    ),
    "ops.assign_not_allowed": (
        "{delivery}: the pickup has started, so its rider can no longer change."
    ),
    "ops.unassign_not_allowed": (
        "{delivery} has no rider to take off: a rider can only be unassigned while the "
        "delivery is matched (assigned, not picked up yet)."
    ),
    "ops.cancel_not_allowed": "{delivery} can no longer be cancelled.",
    "ops.not_a_reference": (
        "“{typed}” is not a delivery reference: type the reference the chats show (like "
        "3F2A9C1E, at least {shortest} characters) or the full id."
    ),
    "ops.no_delivery_among_newest": (
        "There is no delivery {ref} among the newest {count}: check the reference, or type "
        "the full id."
    ),
    "ops.ambiguous_reference": (
        "{ref} is the start of more than one delivery ({ids}): type more of the id."
    ),
    "ops.no_such_delivery_named": "There is no delivery {typed}.",
    "ops.no_such_delivery": "No such delivery.",
    "ops.slow_down_in": (
        "The Partner API asks the bot to slow down; try again in {seconds} seconds."
    ),
    "ops.slow_down": "The Partner API asks the bot to slow down; try again in a minute.",
    "ops.not_accepted": "Not accepted: {problems}",
    "ops.key_refused": "The Partner API refused the bot's key ({code}): check it.",
    "ops.api_failed": "The Partner API failed ({code}); try again shortly.",
    "ops.api_refused": "The Partner API refused: {message}",
    "ops.assign_usage": (
        "Usage: /assign <delivery ref> <rider id>  (/riders <delivery ref> lists riders)"
    ),
    "ops.unassign_usage": "Usage: /unassign <delivery ref>",
    "ops.assigned": "{rider} is assigned to delivery {ref}; it is now: {status}.",
    "ops.unassigned": "The rider was taken off delivery {ref}; it is again: {status}.",
    "ops.riders_usage": "Usage: /riders <delivery ref> [idle] [radius <km>]",
    "ops.no_pickup_coords": "This delivery has no pickup coordinates, so there is no radius.",
    "ops.riders_title": "Riders for delivery {ref}",
    "ops.riders_title_pickup": "Riders for delivery {ref} (pickup: {pickup})",
    "ops.idle_only": "idle only",
    "ops.within": "within {km} km",
    "ops.none_match": "{title}: none match.",
    "ops.listed": "{title}:",
    "ops.unnamed_rider": "Unnamed rider",
    "ops.assign_with": "Assign with /assign {ref} <rider id>",
    "ops.km_away": "{km} km away",
    "ops.distance_unknown": "distance unknown",
    "ops.no_location": "no location",
    "ops.fresh_location": "fresh location",
    "ops.stale_location": "stale location",
    "ops.active_delivery": "1 active delivery",
    "ops.active_deliveries": "{count} active deliveries",
    "ops.list_usage": "Usage: /deliveries [status], one of: {statuses}",
    "ops.dead_list_button": "This button no longer works. Send /deliveries again.",
    "ops.all_deliveries": "All deliveries",
    "ops.deliveries_of": "Deliveries “{status}”",
    "ops.list_none": "{which}: none.",
    "ops.list_no_more": "{which}: no more.",
    "ops.list_title": "{which}, newest first (page {page}):",
    "ops.first_page": "« First",
    "ops.more_exist": "More deliveries exist; filter by status to see them.",
    "ops.rider": "rider {name}",
    "ops.no_rider": "no rider",
    "ops.to": "to {address}",
    # Words a customer types instead of a command (the console's words, Telegram's typed text
    # after an order): the first is the one shown; every word of every language is understood.
    "keyword.back": "back",
    "keyword.cancel": "cancel",
    "keyword.help": "help",
    "keyword.done": "done",
    "keyword.skip": "skip",
    "keyword.new": "new",
    "keyword.repeat": "repeat",
    "keyword.status": "status",
    "keyword.deliveries": "deliveries",
    "keyword.cancel_delivery": "cancel_delivery",
    "keyword.human": "human",
    "keyword.edit": "edit",
    "keyword.location": "location",
    "keyword.where_is_my_parcel": (
        "where is my parcel|where's my parcel|where is my package|where's my package|"
        "where is my order|where's my order|where is my delivery"
    ),
    # The customer's own requests about their data (whole messages: "my data", "/forgetme").
    "keyword.my_data": "my data|mydata|my_data",
    "keyword.forget_me": "forget me|forgetme|forget_me|forget-me",
    # --- keeping the bot safe (bot.safety): blocked customers, operators' /block -------------
    "safety.blocked": (
        "Sorry, we can't take orders from this account. If you think this is a mistake, "
        "please contact us directly."
    ),
    "safety.block_usage": (
        "Write /block and the customer: a delivery reference, a Telegram user id, a WhatsApp "
        "number with its country code (+234...), or an agent channel's customer as "
        "channel:customer; a reason may follow."
    ),
    "safety.unblock_usage": (
        "Write /unblock and the customer: a delivery reference, a Telegram user id, a WhatsApp "
        "number with its country code (+234...), or an agent channel's customer as "
        "channel:customer."
    ),
    "safety.block_done": "{customer} is blocked: no new orders are taken from them.",
    "safety.block_again": "{customer} was blocked already.",
    "safety.drafts_dropped": "Open orders dropped: {count}.",
    "safety.unblock_done": "{customer} may order again.",
    "safety.unblock_none": "{customer} was not blocked.",
    "safety.not_a_customer": (
        "{typed} names no customer: give a delivery reference, a Telegram user id, a WhatsApp "
        "number with its country code (+234...), or an agent channel's customer as "
        "channel:customer."
    ),
    "safety.not_a_whatsapp_number": (
        "{typed} is not a WhatsApp number: write it with its country code, as "
        "+234 801 234 5678 or whatsapp:2348012345678."
    ),
    "safety.no_agent_customer": "No agent channel's customer is known as {typed}.",
    "safety.no_such_delivery": "No delivery ordered through the bot has the reference {ref}.",
    "safety.agent_customer_known_as": (
        "Agent customers are named channel:customer: did you mean {names}?"
    ),
    "safety.agent_customer_form": (
        "Agent customers are named channel:customer, for example {example}."
    ),
    # --- the staff's web console (bot.staff): deliverybot staff invite|list|signout ---------
    "staff.role.viewer": "viewer",
    "staff.role.dispatcher": "dispatcher",
    "staff.role.admin": "admin",
    "staff.invited": (
        "Sign-in link for {name} ({role}); it works once, within {minutes} minutes:\n{link}"
    ),
    "staff.none": "No staff member yet: deliverybot staff invite NAME --role ROLE adds one.",
    "staff.seen": "last seen {when}",
    "staff.never_seen": "never signed in",
    "staff.signed_out": (
        "{name} is signed out everywhere; their sign-in links not yet used no longer work."
    ),
    "staff.no_member": "No staff member is called {name}: deliverybot staff list shows them.",
    "staff.several_named": (
        "{count} staff members are called {name}: name one by its number from deliverybot "
        "staff list ({numbers})."
    ),
    "staff.bad_name": "A staff member's name is 1 to 64 characters, on one line.",
    "staff.console_off": (
        "The web console is off: set [console] enabled = true in the configuration first."
    ),
    "safety.digits_ambiguous": (
        "{typed} is both a Telegram user id and the start of a delivery's reference: write "
        "telegram:{typed} for the user, or the delivery's full id."
    ),
    "safety.limit.open_deliveries": (
        "You have {limit} deliveries on their way already, the most we take at once. You can "
        "order again as soon as one of them is delivered or cancelled."
    ),
    "safety.limit.unpaid_deliveries": (
        "You have {limit} deliveries whose fee is not paid yet, the most we take. You can "
        "order again as soon as one of them is paid."
    ),
    "safety.limit.creates_per_hour": (
        "You've placed {limit} orders in the last hour, the most we take in an hour. You can "
        "order again in {wait}."
    ),
    "safety.limit.creates_per_day": (
        "You've placed {limit} orders in the last 24 hours, the most we take in a day. You can "
        "order again in {wait}."
    ),
    "safety.limit.drafts_per_hour": (
        "You've started {limit} orders in the last hour, the most we take in an hour. You can "
        "start another in {wait}."
    ),
    "safety.wait.minutes": "about {count} minutes",
    "safety.wait.hours": "about {count} hours",
    "safety.limit_alert": (
        "Customer {customer} reached a limit ({kind}: {limit}); their orders are refused until "
        "it frees up. To stop them: /block {customer}"
    ),
    # --- talking to a person: a customer's hand-off to the business's staff (bot.handoff) -----
    "human.button": "Talk to a person",
    "human.offer": "Stuck? You can talk to a person: /human",
    "human.help_line": "/human: talk to a person from our team",
    "human.opened": (
        "A person from our team will answer you here, usually within {minutes} minutes ({hours}). "
        "Your order is kept as it is. Write your message below."
    ),
    "human.opened_no_hours": (
        "A person from our team will answer you here, usually within {minutes} minutes. "
        "Your order is kept as it is. Write your message below."
    ),
    "human.waiting": "You are already waiting for a person from our team: they will answer here.",
    "human.closed": "Our team has closed this conversation. Let's continue with your order.",
    "human.closed_no_order": "Our team has closed this conversation. Thank you!",
    "human.idle_closed": (
        "This conversation with our team was closed after a long silence. Send /human to "
        "reach us again."
    ),
    "human.filled": 'Our team filled in "{question}" for you.',
    "human.slow_down": "Please wait a moment before sending more messages; our team will answer.",
    "human.unavailable": "Sorry, nobody from our team can be reached here right now.",
    "human.order_waits": (
        "A person from our team is talking with you here, so your order waits exactly as it "
        "is; {command} was passed on to them. Once they close this conversation, you can use "
        "{command} again."
    ),
    "staff.card_title": "#{ref} A customer asks for a person",
    "staff.card_who": "Who: {name} (language: {language})",
    "staff.card_where": "Ordering: {flow}, at: {question}",
    "staff.card_no_order": "No order open.",
    "staff.card_answers": "Answers so far:",
    "staff.card_recent": "Last messages:",
    "staff.card_deliveries": "Deliveries:",
    "staff.card_delivery": "{ref}: {status}",
    "staff.card_open": "Waiting for someone to answer.",
    "staff.card_taken": "{owner} is answering.",
    "staff.card_closed": "Closed.",
    "staff.card_blocked": "Ended: the customer was blocked.",
    "staff.card_how": "Reply to this message to answer the customer; Done closes it.",
    "staff.card_how_topic": "Write in this topic to answer the customer; Done closes it.",
    "staff.from_customer": "#{ref} customer: {text}",
    "staff.from_customer_media": "#{ref} customer sent this:",
    "staff.said_customer": "customer",
    "staff.said_staff": "team",
    "staff.take": "I'll answer",
    "staff.done": "Done",
    "staff.taken_by": "{owner} took #{ref}.",
    "staff.already_taken": "{owner} is already answering #{ref}.",
    "staff.closed": "#{ref} is closed; the customer was told.",
    "staff.already_closed": "#{ref} is already closed.",
    "staff.idle_closed": "#{ref} was closed after {hours} hours without a message.",
    "staff.blocked_ended": (
        "#{ref} is ended: the customer was blocked. They were told, and nothing more passes "
        "between them and the team."
    ),
    "staff.no_such": "There is no open hand-off #{ref}.",
    "staff.done_usage": "Usage: /done <reference>, or reply Done to the hand-off.",
    "staff.filled": '#{ref}: filled in "{question}"; the customer is told.',
    "staff.fill_refused": '#{ref}: not accepted for "{question}": {reason}',
    "staff.not_delivered": "#{ref}: the customer could not be reached.",
    "staff.code_refused": (
        "#{ref}: not sent. It contains the drop-off code of one of this customer's deliveries; "
        "a code goes only to the delivery's receiver, through the bot."
    ),
    "staff.reply_blocked": (
        "#{ref}: not sent. This customer is blocked, so their conversation with the team was ended."
    ),
    "steps.sender.share_phone_question": (
        "What is your phone number? Please share your own contact with the button below: "
        "this business takes your number from Telegram."
    ),
    "steps.sender.phone_not_typed": (
        "A typed number cannot be accepted here: this business takes your number from "
        "Telegram. Please tap the button below to share your own contact."
    ),
    "steps.sender.contact_not_own": (
        "That contact is someone else's. Please share your own contact with the button below."
    ),
    # --- the quote: a fee set after the order, put to the customer (quote_texts) ----------
    "quote.question": "Delivery fee: {amount}. Keep the order, or cancel it?",
    "quote.keep": "Keep the order",
    "quote.cancel": "Cancel it",
    "quote.typed": "Type “{keep}” to keep the order, or “{cancel}” to cancel it.",
    "quote.kept": "Thank you: delivery {ref} goes ahead.",
    "quote.cancelled": "Delivery {ref} is cancelled, as you asked.",
    "quote.already_answered": "You already answered about the fee of delivery {ref}.",
    "quote.not_asked": "Delivery {ref} has no question about its fee to answer.",
    "quote.moved_on": (
        "Delivery {ref} is already {status}, so its fee question is closed. Nothing was changed."
    ),
    "quote.try_again": "{trouble} Your answer about delivery {ref} was not taken yet.",
    "quote.cancel_reason": "The customer declined the delivery fee.",
    "quote.ops_kept": "Delivery {ref}: the customer accepted the fee and keeps the order.",
    "quote.ops_cancelled": "Delivery {ref}: the customer declined the fee; the order is cancelled.",
    "quote.ops_not_cancelled": (
        "Delivery {ref}: the customer declined the fee, but the order could not be cancelled "
        "any more (it is {status})."
    ),
}
