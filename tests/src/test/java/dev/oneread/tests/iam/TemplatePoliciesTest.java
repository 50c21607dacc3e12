package dev.oneread.tests.iam;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.iam.Decision;
import dev.oneread.local.iam.FunctionRole;
import dev.oneread.local.iam.IamRequest;
import dev.oneread.local.iam.PolicyValues;
import dev.oneread.local.iam.TemplatePolicies;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.TestEngine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The roles the local IAM reads from template.yaml: SAM's policy templates expanded, intrinsics resolved. */
class TemplatePoliciesTest {
    private final SamTemplate template = SamTemplate.load(TestEngine.get().root.resolve("template.yaml"));
    private final Map<String, FunctionRole> roles = TemplatePolicies.read(
            template,
            new PolicyValues(template, LocalStack.parameters(template, Map.of()), Map.of("Table", "oneread")));
    private final String table = PolicyValues.tableArn("oneread");

    @Test
    void vendoredSamTemplates_shouldBeExactlyTheOnesTheTemplateUses() {
        assertThat(TemplatePolicies.samTemplates().keySet())
                .containsExactlyInAnyOrderElementsOf(TemplatePolicies.templatesUsed(template));
    }

    @Test
    void everyFunction_shouldHaveItsRole() {
        assertThat(roles)
                .hasSize(template.resourcesOfType("AWS::Serverless::Function").size());
        assertThat(roles.get("DeleteProject").roleName()).isEqualTo("DeleteProjectRole");
        // a function with Role: !GetAtt X.Arn runs as X
        assertThat(roles.get("PlanJobs").roleName()).isEqualTo("PlanJobsRole");
        assertThat(roles.get("RunJob").roleName()).isEqualTo("RunJobRole");
    }

    @Test
    void secretsManagerTemplate_shouldExpandAsSamDoes_toTheSecretTheFunctionNames() {
        // GIVEN ListProjects' AWSSecretsManagerGetSecretValuePolicy with SecretArn: !Ref CursorKeySecret
        FunctionRole listProjects = roles.get("ListProjects");
        IamRequest read = new IamRequest("secretsmanager:GetSecretValue", LocalStack.LOCAL_CURSOR_KEY_SECRET, Map.of());
        // THEN it may read that secret and no other; GetProject, with no template, may read none
        assertThat(listProjects.policy().evaluate(read)).isEqualTo(Decision.ALLOW);
        assertThat(listProjects
                        .policy()
                        .evaluate(new IamRequest(
                                "secretsmanager:GetSecretValue", LocalStack.LOCAL_CURSOR_KEY_SECRET + "-2", Map.of())))
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(roles.get("GetProject").policy().evaluate(read)).isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void subOfTheTableArn_shouldNameTheIndex() {
        // ListProjectsByStatus: Resource !Sub "${Table.Arn}/index/GSI1", LeadingKeys STATUS#*
        FunctionRole byStatus = roles.get("ListProjectsByStatus");
        Map<String, List<String>> status = Map.of("dynamodb:LeadingKeys", List.of("STATUS#ACTIVE#03"));
        assertThat(byStatus.policy().evaluate(new IamRequest("dynamodb:Query", table + "/index/GSI1", status)))
                .isEqualTo(Decision.ALLOW);
        assertThat(byStatus.policy().evaluate(new IamRequest("dynamodb:Query", table, status)))
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void deniedMessage_shouldBeAwsWording_namingRoleFunctionActionAndResource() {
        IamRequest put =
                new IamRequest("dynamodb:PutItem", table, Map.of("dynamodb:LeadingKeys", List.of("WS#acme#2")));
        FunctionRole getProject = roles.get("GetProject");
        assertThat(getProject.deniedMessage(put, getProject.policy().evaluate(put)))
                .isEqualTo("User: arn:aws:sts::000000000000:assumed-role/GetProjectRole/GetProject is not "
                        + "authorized to perform: dynamodb:PutItem on resource: "
                        + "arn:aws:dynamodb:us-east-1:000000000000:table/oneread because no identity-based policy "
                        + "allows the dynamodb:PutItem action");
        assertThat(Decision.EXPLICIT_DENY.reason("dynamodb:PutItem"))
                .isEqualTo("with an explicit deny in an identity-based policy");
    }
}
