// @ts-check
'use strict';

/**
 * Every function name the Web API knows, with the arguments it requires (`name:arg1,arg2`), as api.php
 * checks them: a name outside this list is a 404 even before the token is read; a listed name with a
 * missing argument is a 400 naming the first one missing. Most of these the sandbox does not imitate.
 */
const TABLE = `
get-user-by:by,value update-bot get-last-agent-in-conversation:conversation_id
get-last-message:conversation_id delete-attachments execute-bot-message:name
messaging-platforms-send-message:message,conversation_id translate-string:string,language_code
save-external-setting:name,value get-multi-setting:id,sub_id newsletter:email upload-path
is-allowed-extension:extension system-requirements logs:string aws-s3:file_path
automations-is-sent:user_id,automation login logout update-login is-online:user_id get-setting:setting
get-external-setting:setting saved-replies get-settings save-settings:setting add-user get-user:user_id
get-user-extra:user_id get-user-language:user_id get-new-users:datetime get-users get-online-users
get-user-from-conversation:conversation_id get-users-with-details:details search-users:search
delete-user:user_id delete-users:user_ids update-user:user_id count-users update-user-to-lead:user_id
get-conversations get-new-conversations:datetime get-conversation:conversation_id search-conversations:search
search-user-conversations:search,user_id new-conversation:user_id get-user-conversations:user_id
get-new-user-conversations:user_id,datetime update-conversation-status:conversation_id,status_code
update-conversation-department:conversation_id,department set-rating:conversation_id,user_id
get-rating:user_id get-new-messages:user_id,conversation_id,datetime send-message:user_id,conversation_id
send-slack-message:user_id update-message:message_id update-messages-status:conversation_id,message_ids
delete-message:message_id send-email:recipient_id,message send-custom-email:to,subject,message slack-users
archive-slack-channels slack-channels slack-presence current-url get-articles get-articles-categories
save-articles-categories:categories save-article:article search-articles:search article-ratings get-versions
update wp-sync app-get-key:app_name app-activation:app_name,key csv-users transcript:conversation_id
cron-jobs is-typing:user_id,conversation_id is-agent-typing:conversation_id set-typing
push-notification:title,message,interests dialogflow-message dialogflow-create-intent:expressions,response
dialogflow-entity:entity_name,synonyms dialogflow-get-entity google-get-token
dialogflow-get-agent:context_name,user_id dialogflow-set-active-context:context_name
dialogflow-curl:url_part,query dialogflow-get-intents
dialogflow-update-intent:intent_name,expressions,response woocommerce-get-customer:session_key
woocommerce-get-user-orders:user_id woocommerce-get-order:order_id woocommerce-get-product:product_id
woocommerce-get-taxonomies:type woocommerce-get-attributes woocommerce-get-product-id-by-name:name
woocommerce-get-product-images:product_id woocommerce-get-product-taxonomies:product_id
woocommerce-get-attribute-by-term:term_name woocommerce-get-attribute-by-name:name
woocommerce-is-in-stock:product_id woocommerce-coupon:discount,expiration woocommerce-coupon-check:user_id
woocommerce-coupon-delete-expired woocommerce-get-url:type woocommerce-get-session:session_key
woocommerce-get-session-key:user_id woocommerce-payment-methods woocommerce-shipping-locations
woocommerce-get-products woocommerce-search-products:search woocommerce-dialogflow-entities
woocommerce-dialogflow-intents pusher-trigger:channel,event chat-css get-avatar:first_name get-agents-ids
text-formatting-to-html:message clear-text-formatting:message send-sms:message,to get-notes:conversation_id
add-note:conversation_id,user_id,name,message delete-note:conversation_id,note_id automations-get
automations-save:automations automations-run:automation automations-run-all automations-validate:automation
email-piping get-bot-id get-agents-in-conversation:conversation_id
update-conversation-agent:conversation_id,agent_id open-ai-curl:url_part open-ai-message:message
open-ai-user-expressions:message clean-data get-translation:language_code get-translations
save-translations:translations direct-message:user_ids reports:name reports-update:name get-departments
delete-leads updates-available google-translate:strings,language_code
google-translate-detection-update-user:string,user_id export-settings import-settings:file_url
count-conversations check-conversations-assignment:conversation_ids
messenger-send-message:psid,facebook_page_id whatsapp-send-message:to whatsapp-send-template:to
telegram-send-message:chat_id viber-send-message:viber_id zalo-send-message:zalo_id line-send-message:line_id
wechat-send-message:open_id init-articles`;

/** @type {ReadonlyMap<string, readonly string[]>} */
const WEB_API_FUNCTIONS = new Map(
	TABLE.split(/\s+/)
		.filter(Boolean)
		.map((entry) => {
			const [name, args = ''] = entry.split(':');
			return /** @type {[string, string[]]} */ ([name, args.split(',').filter(Boolean)]);
		}),
);

module.exports = { WEB_API_FUNCTIONS };
