package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The identity template.yaml creates when JwtIssuer is empty, and only then: a Cognito user pool whose access tokens
 * the authorizer trusts, with the scopes the routes require, and a trigger that users cannot feed themselves.
 */
class IdentityTemplateTest {
    private static final String CONDITION = "CreateIdentity";
    private final SamTemplate template = SamTemplate.load(ProjectRoot.find().resolve("template.yaml"));

    @Test
    void identityResources_shouldExistOnlyWithoutAnExternalIssuer() {
        // GIVEN the condition: JwtIssuer left empty (its default)
        assertThat(SamTemplate.map(template.document().get("Conditions")))
                .containsEntry(CONDITION, Map.of("Fn::Equals", List.of(Map.of("Ref", "JwtIssuer"), "")));
        assertThat(template.parameters().get("JwtIssuer")).containsEntry("Default", "");
        assertThat(template.parameters().get("JwtAudience")).containsEntry("Default", "");
        // THEN every Cognito resource, the trigger and what serves it carry that condition, and so do the outputs
        // that name them
        template.resources().forEach((id, resource) -> {
            String type = String.valueOf(resource.get("Type"));
            if (type.startsWith("AWS::Cognito::") || id.startsWith("AddWorkspacesClaim")) {
                assertThat(resource.get("Condition")).as(id).isEqualTo(CONDITION);
            }
        });
        assertThat(template.resources())
                .containsKeys(
                        "UserPool",
                        "UserPoolResourceServer",
                        "UserPoolDomain",
                        "OperatorClient",
                        "UserClient",
                        "AddWorkspacesClaim",
                        "AddWorkspacesClaimPermission");
        Map<String, Object> outputs = SamTemplate.map(template.document().get("Outputs"));
        for (String output : List.of("UserPoolId", "OperatorClientId", "UserClientId", "TokenUrl", "AuthorizeUrl")) {
            assertThat(SamTemplate.map(outputs.get(output))).as(output).containsEntry("Condition", CONDITION);
        }
    }

    @Test
    void authorizer_shouldTrustThePoolAndBothClients_orElseTheParameters() {
        Map<String, Object> jwt = SamTemplate.map(SamTemplate.map(SamTemplate.map(SamTemplate.map(SamTemplate.map(
                                                template.resources().get("Api").get("Properties"))
                                        .get("Auth"))
                                .get("Authorizers"))
                        .get("Jwt"))
                .get("JwtConfiguration"));
        assertThat(jwt.get("issuer"))
                .isEqualTo(Map.of(
                        "Fn::If",
                        List.of(
                                CONDITION,
                                Map.of("Fn::Sub", "https://cognito-idp.${AWS::Region}.${AWS::URLSuffix}/${UserPool}"),
                                Map.of("Ref", "JwtIssuer"))));
        assertThat(jwt.get("audience"))
                .isEqualTo(Map.of(
                        "Fn::If",
                        List.of(
                                CONDITION,
                                List.of(Map.of("Ref", "OperatorClient"), Map.of("Ref", "UserClient")),
                                List.of(Map.of("Ref", "JwtAudience")))));
    }

    @Test
    void clients_shouldGrantTheRoutesScopes_andNeverLetUsersWriteTheirWorkspaces() {
        Map<String, Object> operators = properties("OperatorClient");
        assertThat(operators)
                .containsEntry("GenerateSecret", true)
                .containsEntry("AllowedOAuthFlows", List.of("client_credentials"))
                .containsEntry("AllowedOAuthScopes", List.of("oneread/admin", "oneread/api"));
        Map<String, Object> users = properties("UserClient");
        assertThat(users)
                .containsEntry("GenerateSecret", false)
                .containsEntry("AllowedOAuthFlows", List.of("code"))
                .containsEntry("AllowedOAuthScopes", List.of("openid", "oneread/api"));
        // the one rule that keeps a user from granting themselves any workspace
        assertThat(SamTemplate.list(users.get("WriteAttributes"))).doesNotContain("custom:workspaces");
        assertThat(SamTemplate.list(users.get("ReadAttributes"))).contains("custom:workspaces");
        assertThat(SamTemplate.list(properties("UserPoolResourceServer").get("Scopes")).stream()
                        .map(scope -> "oneread/" + SamTemplate.map(scope).get("ScopeName")))
                .containsExactlyInAnyOrder("oneread/api", "oneread/admin");
        // AND self sign-up is off: only an administrator creates users (and sets their workspaces)
        assertThat(SamTemplate.map(properties("UserPool").get("AdminCreateUserConfig")))
                .containsEntry("AllowAdminCreateUserOnly", true);
    }

    @Test
    void pool_shouldCallTheTriggersAliasWithTheAccessTokenEvent() {
        Map<String, Object> pool = properties("UserPool");
        // Access-token customization needs the Essentials (or Plus) plan and the V2_0 event (Cognito's guide)
        assertThat(pool).containsEntry("UserPoolTier", "ESSENTIALS");
        assertThat(SamTemplate.map(SamTemplate.map(pool.get("LambdaConfig")).get("PreTokenGenerationConfig")))
                .containsEntry("LambdaArn", Map.of("Ref", "AddWorkspacesClaim.Alias"))
                .containsEntry("LambdaVersion", "V2_0");
        assertThat(properties("AddWorkspacesClaimPermission"))
                .containsEntry("FunctionName", Map.of("Ref", "AddWorkspacesClaim.Alias"))
                .containsEntry("Principal", "cognito-idp.amazonaws.com")
                .containsEntry("SourceArn", Map.of("Fn::GetAtt", List.of("UserPool", "Arn")));
        // AND the trigger follows the functions' contract: its log group, and its alarms as rollback triggers
        Map<String, Object> trigger = properties("AddWorkspacesClaim");
        assertThat(trigger)
                .containsEntry("LoggingConfig", Map.of("LogGroup", Map.of("Ref", "AddWorkspacesClaimLogGroup")));
        assertThat(SamTemplate.map(trigger.get("DeploymentPreference")).get("Alarms"))
                .isEqualTo(List.of(
                        Map.of("Ref", "AddWorkspacesClaimErrorsAlarm"),
                        Map.of("Ref", "AddWorkspacesClaimThrottlesAlarm"),
                        Map.of("Ref", "AddWorkspacesClaimDurationAlarm")));
        assertThat(properties("AddWorkspacesClaimLogGroup"))
                .containsEntry("RetentionInDays", Map.of("Ref", "LogRetentionDays"));
    }

    // Guards issue 37: the user pool had no deletion protection, MFA was off, and a user could change their sign-in
    // email without verifying the new address.
    @Test
    void pool_shouldBeProtected_askForMfaAsTheParameterSays_andVerifyANewEmail() {
        Map<String, Object> pool = properties("UserPool");
        assertThat(pool).containsEntry("DeletionProtection", "ACTIVE");
        // MFA: a parameter, ON unless a stack says otherwise; with OFF, Cognito takes no MFA factor at all
        Map<String, Object> mfa = template.parameters().get("IdentityMfa");
        assertThat(mfa).as("IdentityMfa").isNotNull().containsEntry("Default", "ON");
        assertThat(SamTemplate.list(mfa.get("AllowedValues"))).containsExactlyInAnyOrder("OFF", "OPTIONAL", "ON");
        assertThat(pool).containsEntry("MfaConfiguration", Map.of("Ref", "IdentityMfa"));
        assertThat(SamTemplate.map(template.document().get("Conditions")))
                .containsEntry("IdentityMfaOff", Map.of("Fn::Equals", List.of(Map.of("Ref", "IdentityMfa"), "OFF")));
        assertThat(pool)
                .containsEntry(
                        "EnabledMfas",
                        Map.of(
                                "Fn::If",
                                List.of(
                                        "IdentityMfaOff",
                                        Map.of("Ref", "AWS::NoValue"),
                                        List.of("SOFTWARE_TOKEN_MFA"))));
        // AND a new email takes effect only once its owner confirms it
        assertThat(SamTemplate.list(pool.get("AutoVerifiedAttributes"))).contains("email");
        assertThat(pool)
                .containsEntry(
                        "UserAttributeUpdateSettings",
                        Map.of("AttributesRequireVerificationBeforeUpdate", List.of("email")));
    }

    private Map<String, Object> properties(String resource) {
        return SamTemplate.map(template.resources().get(resource).get("Properties"));
    }
}
